// Every puzzle entry of sigh's data files (data/example_puzzles.js, data/collections.js) as
// JSON lines: {file, group, index, name, input, solution?, constraints, form}.
// `constraints` is the entry as a sigh constraint string: the input itself when it is one;
// for a `/...` path, the .iss file's text or what the .js sandbox script returns (run by
// sigh's own sandbox runner); for sigh's other text forms (compact killer, SudoCue killer,
// pencil marks, jigsaw text), sigh's own parser's serialization of it. `form` says which.
// Usage: node scripts/sigh_entries.mjs SIGH_CHECKOUT > entries.jsonl   (used by sigh_collection.py)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
if (!root) { console.error('usage: node sigh_entries.mjs SIGH_CHECKOUT'); process.exit(2); }
const load = (p) => import(pathToFileURL(resolve(root, p)).href);
const { ensureGlobalEnvironment } = await load('tests/helpers/test_env.js');
ensureGlobalEnvironment();
const { SudokuParser } = await load('js/sudoku_parser.js');
const { runSandboxToConstraint } = await load('tools/lib/sandbox_runner.js');
const examples = await load('data/example_puzzles.js');
const collections = await load('data/collections.js');

const isString = (text) => /^\s*\.[A-Za-z]*~/.test(text) || /^\s*\.[A-Za-z]+(\.|$)/.test(text);

const resolveEntry = async (input) => {
  if (input.startsWith('/')) {
    const text = readFileSync(resolve(root, input.slice(1)), 'utf8');
    if (input.endsWith('.js')) return [await runSandboxToConstraint(text), 'sandbox script'];
    return [text, 'file'];
  }
  if (isString(input)) {
    try { SudokuParser._parseStringToAst(input); return [input, 'string']; } catch { }
  }
  return [SudokuParser.parseText(input).toString(), 'text form, serialized by sigh'];
};

const entries = [];
for (const p of examples.DISPLAYED_EXAMPLES) {
  entries.push({ file: 'example_puzzles', group: 'DISPLAYED_EXAMPLES', ...p });
}
for (const [group, list] of Object.entries(collections)) {
  if (!Array.isArray(list)) continue;
  list.forEach((entry, index) => {
    const config = typeof list.configFor === 'function'
      ? list.configFor(entry) : examples.resolvePuzzleConfig(entry);
    entries.push({ file: 'collections', group, index, ...config });
  });
}
for (const e of entries) {
  const out = { file: e.file, group: e.group, index: e.index ?? null, name: e.name,
    input: e.input, solution: e.solution ?? null };
  try {
    [out.constraints, out.form] = await resolveEntry(e.input);
  } catch (err) {
    out.constraints = null; out.form = 'sigh cannot read it: ' + String(err && err.message || err);
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
