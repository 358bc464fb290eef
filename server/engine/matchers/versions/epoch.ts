// `[epoch:]version[-release]`, the shape Debian and RPM versions share: only digits before the
// first `:` make an epoch, and the release (Debian: revision) is what follows the last `-`.

export interface EpochVersion {
  readonly epoch: bigint;
  readonly version: string;
  /** null when there is no `-` at all (RPM tells `1` from `1-`; Debian reads both as no revision). */
  readonly release: string | null;
}

export function splitEpoch(text: string): EpochVersion {
  const trimmed = text.trim();
  const epoch = /^(\d+):/.exec(trimmed);
  const rest = epoch ? trimmed.slice(epoch[0].length) : trimmed;
  const dash = rest.lastIndexOf('-');
  return {
    epoch: epoch ? BigInt(epoch[1]!) : 0n,
    version: dash < 0 ? rest : rest.slice(0, dash),
    release: dash < 0 ? null : rest.slice(dash + 1),
  };
}
