/**
 * The {@link PassJournal} of the libSQL store: each verb of a pass becomes a statement of `call-statements.ts`,
 * durable ones committed through the pass's group-commit writer (`journal-writer.ts`) with everything queued,
 * the others queued on it.
 */
import {
  applyCallStatement,
  countReplaysStatement,
  dropInterruptedStepStatement,
  failCallStatement,
  failUnreachedApprovalsStatement,
  finishPassStatement,
  insertCallStatement,
  readCallStatement,
  renewLeaseStatement,
  startApprovedCallStatement,
} from "./call-statements.js";
import { keepModuleSourceStatement, releaseModuleSourcesStatement } from "./module-source-rows.js";
import type { PassJournal, PassLease } from "../journal/journal-store.js";
import { JournalWriter } from "./journal-writer.js";
import type { SqlClient } from "./connection/sql-client.js";

/** The journal of the pass holding `lease`, on `client`. */
export function libsqlPassJournal(client: SqlClient, lease: PassLease): PassJournal {
  const writer = new JournalWriter(client, lease);
  return {
    async insertCall(call, { gather = false } = {}) {
      const inserted = await writer.commit(insertCallStatement({ ...call, replay: "record" }), { gather });
      return inserted.rowsAffected === 1;
    },
    applyCall: ({ seq, resultText, now }) => writer.defer(applyCallStatement(seq, resultText, now)),
    failCall: ({ seq, error, now }) => writer.defer(failCallStatement(seq, error, now)),
    recordRead(read) {
      const outcome = "error" in read ? { error: read.error } : { resultText: read.resultText };
      writer.defer(readCallStatement(read, outcome));
    },
    beginStep: (step) =>
      writer.defer(insertCallStatement({ ...step, status: "executing", replay: "record", needsApproval: false })),
    logReexecuted: (call) =>
      writer.defer(insertCallStatement({ ...call, status: "applied", replay: "reexecute", needsApproval: false })),
    async startApprovedCall({ seq, now }) {
      return (await writer.commit(startApprovedCallStatement(lease, seq, now))).rowsAffected === 1;
    },
    dropStep: ({ seq }) => writer.defer(dropInterruptedStepStatement(lease, seq), { expectRow: false }),
    failUnreachedApprovals: ({ seqs, reason, now }) =>
      writer.defer(failUnreachedApprovalsStatement(lease, seqs, reason, now), { expectRow: false }),
    countReplays: ({ seqs }) => writer.defer(countReplaysStatement(lease, seqs), { expectRow: false }),
    renewLease: ({ leaseUntil }) => writer.defer(renewLeaseStatement(lease, leaseUntil), { send: true }),
    async finish(end) {
      for (const kept of end.moduleSources ?? [])
        writer.defer(keepModuleSourceStatement(lease.runtime, kept, end.now), { expectRow: false });
      if (end.releaseModules === true) writer.defer(releaseModuleSourcesStatement(lease), { expectRow: false });
      return (await writer.commit(finishPassStatement(lease, end))).rowsAffected === 1;
    },
    async finishAfterFailure(end) {
      await client.execute(finishPassStatement(lease, end));
    },
    flush: () => writer.flush(),
    get failure() {
      return writer.failure;
    },
    get lostRows() {
      return writer.lostRows;
    },
  };
}
