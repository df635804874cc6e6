import type { Db } from '../../db/client.ts';
import { loadDatabase } from '../../operations/handlers/database-provisioning.ts';
import { type Runtime, RuntimeError } from '../../runtimes/runtime.ts';

/**
 * How long a database's page waits for its runtime to say whether the database can run: just over the
 * 5 s the swarm runtime gives a node's Engine API to answer, so a node that hangs is still reported.
 */
export const DATABASE_PROBLEM_WAIT_MS = 6000;

export interface DatabaseProblemDeps {
  db: Db;
  runtimes: Record<string, Runtime>;
  waitMs?: number;
  /** The engine's own words name sockets and addresses: the server's log gets them, not the caller. */
  onEngineError?: (databaseId: number, error: unknown) => void;
}

/**
 * Asks the runtime of a provisioned database's stack why it cannot run (issue 39: its node is down).
 * Null when nothing is wrong, when the runtime cannot tell, or when it does not answer in time: the page
 * must not hang on an engine, and a slow answer is not proof of a lost node.
 */
export function createDatabaseProblems(deps: DatabaseProblemDeps) {
  const { db, runtimes, waitMs = DATABASE_PROBLEM_WAIT_MS, onEngineError = () => {} } = deps;
  return async function databaseProblem(databaseId: number): Promise<string | null> {
    // Deleted since the page's own read: nothing to say (the database's answer is the page's concern).
    const loaded = await loadDatabase(db, databaseId).catch((error: unknown) => {
      if (error instanceof RuntimeError) return null;
      throw error;
    });
    if (!loaded?.database.provisioned) return null;
    const runtime = runtimes[loaded.stack.runtime];
    if (!runtime?.databaseProblem) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    });
    try {
      return await Promise.race([runtime.databaseProblem(loaded.target), late]);
    } catch (error) {
      onEngineError(databaseId, error);
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}
export type DatabaseProblems = ReturnType<typeof createDatabaseProblems>;
