// Builds the dashboard's rule book (rule-book.entry.ts) into one browser ES module with esbuild,
// once per process: the API awaits it before it listens, so a rule book that does not build
// stops the server start with the reason, instead of a page that fails in the hall.
import { build, type Message } from 'esbuild';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const RULE_BOOK_ENTRY = join(HERE, 'rule-book.entry.ts');
/** Where the page loads it from (app.js: `import … from './rule-book.js'`). */
export const RULE_BOOK_PATH = '/rule-book.js';

export class RuleBookBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleBookBuildError';
  }
}

/** `host/adapters/http/dashboard/x.ts:3:14: Expected ";" but found "b"`: what and where (docs/architecture.md rule 10). */
function describeMessages(messages: readonly Message[]): string {
  return messages
    .map((m) => {
      const at = m.location ? `${relative(process.cwd(), m.location.file) || m.location.file}:${m.location.line}:${m.location.column + 1}: ` : '';
      return `${at}${m.text}`;
    })
    .join('\n  ');
}

/** Bundles `entry` (default: the dashboard's rule book) for the browser; rejects with RuleBookBuildError. */
export async function buildRuleBook(entry: string = RULE_BOOK_ENTRY): Promise<string> {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      charset: 'utf8',
      legalComments: 'none',
      logLevel: 'silent',
    });
    return result.outputFiles[0].text;
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    const why = errors && errors.length > 0 ? describeMessages(errors) : (err as Error).message;
    throw new RuleBookBuildError(`the dashboard's rule book (${relative(process.cwd(), entry) || entry}) did not build:\n  ${why}`);
  }
}

let bundle: Promise<string> | null = null;

/** The dashboard's rule book, built on first use and then kept for the life of the process. */
export function ruleBookBundle(): Promise<string> {
  if (bundle === null) {
    bundle = buildRuleBook();
    // A failed build is not kept: the next server start in this process tries again.
    bundle.catch(() => {
      bundle = null;
    });
  }
  return bundle;
}
