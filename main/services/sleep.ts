// A wait that ends early when its transfer is cancelled (uploads and downloads back off with it).
export const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(done, ms);
  signal.addEventListener('abort', done, { once: true });
  function done() {
    clearTimeout(timer);
    signal.removeEventListener('abort', done);
    resolve();
  }
});
