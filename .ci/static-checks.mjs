// `npm test`'s static checks: the type check, eslint and prettier (the `typecheck` and `lint`
// scripts of package.json: keep the two lists alike), started together so that they share the
// machine's cores rather than run one after the other. When all three have ended, each one's
// output is printed whole, in the order listed, so nothing interleaves; the exit code is non-zero
// when any of them failed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

/** The repository's root, where the checks run from wherever this script is started. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** [name, program in node_modules/.bin, arguments]: the `typecheck` and `lint` npm scripts. */
const CHECKS = [
  ['typecheck', 'tsc', ['--noEmit']],
  ['eslint', 'eslint', ['.']],
  ['prettier', 'prettier', ['--check', '.']],
];

function runCheck([name, program, args]) {
  const startedAt = performance.now();
  const child = spawn(join(ROOT, 'node_modules', '.bin', program), args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((done) => {
    child.once('error', (error) => done({ name, code: 1, output: [Buffer.from(`${error}\n`)] }));
    child.once('close', (code, signal) =>
      done({
        name,
        code: code ?? 1,
        signal,
        seconds: (performance.now() - startedAt) / 1000,
        output,
      }),
    );
  });
}

const results = await Promise.all(CHECKS.map(runCheck));
for (const { name, code, signal, seconds, output } of results) {
  const text = Buffer.concat(output).toString('utf8');
  const status = code === 0 ? 'ok' : signal ? `killed by ${signal}` : `failed (exit ${code})`;
  process.stdout.write(
    `${name}: ${status}${seconds === undefined ? '' : ` in ${seconds.toFixed(1)} s`}\n`,
  );
  if (code !== 0 || text.trim() !== '')
    process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
}
process.exitCode = results.some(({ code }) => code !== 0) ? 1 : 0;
