// Rust: Cargo.lock (with the Cargo.toml beside it for the root package and dev-only edges).
import type { Extractor } from '../../model.ts';
import { cargoLockExtractor } from './cargo-lock.ts';

export { cargoLockExtractor, parseCargoLock } from './cargo-lock.ts';

export const extractors: Extractor[] = [cargoLockExtractor];
