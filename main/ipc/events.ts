// The event channels of the contract, for hosts that forward them (Electron window, web SSE).
import { desktopContract, walkContract } from '../../contract/ipc/desktop-contract.ts';

export const eventChannels: readonly string[] = walkContract(desktopContract)
  .filter(({ descriptor }) => descriptor.kind === 'event')
  .map(({ descriptor }) => descriptor.channel);
