// A write the journal's storage refused (a full disk, an I/O error, a read-only file), as the
// adapters answer it: not the request's fault, so the HTTP API answers 503 with the reason in
// words, as /api/health does (docs/api.md, "Errors"; docs/reliability.md, "Disk full"). The
// adapters may not read host/store (docs/architecture.md): this is their door to it.
import { describeStorageFault, storageFaultCode } from '../store/storage-health.ts';

/** What went wrong, in words, when `err` is a storage fault (SQLite's storage result codes); null for any other error. */
export function storageFaultReason(err: unknown): string | null {
  const code = storageFaultCode(err);
  return code === null ? null : describeStorageFault(code, (err as Error).message);
}
