// The pages the host serves (docs/dashboard.md): the arbiter's dashboard (`/`), the hall screen
// (`/public`), the captains' page (`/captain`), their style sheets and their scripts, each
// bundled once at start with the rule book in it (dashboard/rule-book-bundle.ts).
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPTAIN_PATH, PAGE_PATH } from './dashboard/rule-book-bundle.ts';

export interface PageOptions {
  /** The dashboard page's script (/app.js). */
  readonly pageJs: string;
  /** The captains' page's script (/captain.js). */
  readonly captainJs: string;
}

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'dashboard');
const HTML = 'text/html; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
/** URL → the file in dashboard/ and its type. */
const PAGE_FILES: Record<string, [string, string]> = {
  '/': ['index.html', HTML],
  '/public': ['public.html', HTML],
  '/style.css': ['style.css', CSS],
  '/captain': ['captain.html', HTML],
  '/captain.css': ['captain.css', CSS],
};

/** The pages, as a Fastify plugin: read from disk on every request, never cached stale. */
export async function pageRoutes(app: FastifyInstance, opts: PageOptions): Promise<void> {
  for (const [url, [file, type]] of Object.entries(PAGE_FILES)) {
    app.get(url, async (_req, reply) =>
      reply
        .type(type)
        .header('cache-control', 'no-cache')
        .send(await readFile(join(PAGE_DIR, file), 'utf8')),
    );
  }
  // The pages' own code (dashboard/src/main.ts, dashboard/src/captain.ts and their modules, bundled at start).
  app.get(PAGE_PATH, async (_req, reply) => reply.type(JS).header('cache-control', 'no-cache').send(opts.pageJs));
  app.get(CAPTAIN_PATH, async (_req, reply) => reply.type(JS).header('cache-control', 'no-cache').send(opts.captainJs));
}
