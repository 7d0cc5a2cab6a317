// Builds the dashboard's browser modules with esbuild, once per process, each with the rule book
// it imports from rules/ bundled in: the page (src/main.ts, the typed front end of `/` and
// `/public` with its match panels, served at /app.js) and the captains' page (src/captain.ts,
// served at /captain.js). The API awaits both before it listens, so a module that does not build
// stops the server start with the reason (file:line:column), instead of a page that fails in the hall.
import { build, type Message } from 'esbuild';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The page's entry: `/` and `/public` (src/main.ts imports the rule book from rules/ itself). */
export const PAGE_ENTRY = join(HERE, 'src', 'main.ts');
/** Where index.html and public.html load the bundled page from. */
export const PAGE_PATH = '/app.js';
/** The captains' page's entry: `/captain`. */
export const CAPTAIN_ENTRY = join(HERE, 'src', 'captain.ts');
/** Where captain.html loads it from. */
export const CAPTAIN_PATH = '/captain.js';

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

/**
 * Bundles `entry` for the browser into one self-contained ES module; rejects with
 * RuleBookBuildError naming `what` (`the dashboard's page`) and each error's place.
 */
export async function buildBrowserModule(entry: string, what: string): Promise<string> {
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
    throw new RuleBookBuildError(`${what} (${relative(process.cwd(), entry) || entry}) did not build:\n  ${why}`);
  }
}

/** Bundles the page (default: src/main.ts, with the rule book it imports from rules/). */
export function buildPage(entry: string = PAGE_ENTRY): Promise<string> {
  return buildBrowserModule(entry, "the dashboard's page");
}

/** Bundles the captains' page (default: src/captain.ts, with the rule book it imports from rules/). */
export function buildCaptainPage(entry: string = CAPTAIN_ENTRY): Promise<string> {
  return buildBrowserModule(entry, "the captains' page");
}

/** One build per process; a failed build is not kept: the next server start in this process tries again. */
function once(make: () => Promise<string>): () => Promise<string> {
  let bundle: Promise<string> | null = null;
  return () => {
    if (bundle === null) {
      bundle = make();
      bundle.catch(() => {
        bundle = null;
      });
    }
    return bundle;
  };
}

/** The dashboard's page (src/main.ts), built on first use and then kept for the life of the process. */
export const pageBundle = once(() => buildPage());
/** The captains' page (src/captain.ts), built on first use and then kept for the life of the process. */
export const captainBundle = once(() => buildCaptainPage());
