// Progress lines on stderr with the seconds since the bench started, so a slow section shows itself.
const started = performance.now();

export function step(text: string): void {
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  process.stderr.write(`[bench ${elapsed.padStart(4)} s] ${text}\n`);
}
