// Builds the back-office console (console/, Vite) into dist/console, which the service serves at /console
// (src/http/console.ts). Skipped when the build is newer than every source file and the lock file, so
// `npm start` and the test suite's global setup pay for it only after a change.
//   node scripts/build-console.mjs            build when stale
//   node scripts/build-console.mjs --report   always build, then print the build time and the gzipped size
//   node scripts/build-console.mjs --json     the same, as one JSON line (the bench's report reads it)
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const sourceDir = path.join(root, 'console');
const outDir = path.join(root, 'dist', 'console');
const stamp = path.join(outDir, '.built');
const json = process.argv.includes('--json');
const report = json || process.argv.includes('--report');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

const newestSource = Math.max(
  ...[...files(sourceDir), path.join(root, 'package-lock.json')].map((file) => statSync(file).mtimeMs),
);
if (!report && existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource) process.exit(0);

// React's production build, whatever NODE_ENV the caller runs under (vitest sets `test`).
process.env.NODE_ENV = 'production';
const { build } = await import('vite');
const started = performance.now();
await build({ configFile: path.join(sourceDir, 'vite.config.ts'), logLevel: 'warn' });
const seconds = (performance.now() - started) / 1000;
writeFileSync(stamp, `${new Date().toISOString()}\n`);

if (report) {
  const assets = files(outDir).filter((file) => /\.(js|css|html)$/.test(file));
  const sizes = assets.map((file) => {
    const bytes = readFileSync(file);
    return { file: path.relative(outDir, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  const total = sizes.reduce((sum, size) => ({ raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip }), {
    raw: 0,
    gzip: 0,
  });
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ seconds, files: sizes.length, rawBytes: total.raw, gzipBytes: total.gzip })}\n`,
    );
    process.exit(0);
  }
  for (const { file, raw, gzip } of sizes) process.stdout.write(`${file}: ${kib(raw)}, ${kib(gzip)} gzipped\n`);
  process.stdout.write(
    `console build: ${seconds.toFixed(1)} s; ${sizes.length} files, ${kib(total.raw)}, ${kib(total.gzip)} gzipped\n`,
  );
} else {
  process.stderr.write(`console built in ${seconds.toFixed(1)} s (dist/console)\n`);
}
