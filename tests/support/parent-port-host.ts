// Runs an entry as Electron's utilityProcess would (tests without Electron): `process.parentPort`
// is there, `process.send` is not. What the entry posts goes to stdout as one JSON line per
// message; a line on stdin is a message to it.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

type Listener = (event: { data: unknown }) => void;
const listeners: Listener[] = [];
(process as unknown as { parentPort: unknown }).parentPort = {
  postMessage: (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`),
  on: (_event: 'message', listener: Listener) => listeners.push(listener),
};
createInterface({ input: process.stdin }).on('line', (line) => {
  for (const listener of listeners) listener({ data: JSON.parse(line) as unknown });
});
await import(pathToFileURL(process.argv[2]!).href);
