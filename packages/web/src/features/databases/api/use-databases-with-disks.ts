import { type DatabaseResource, MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromDatabaseResource } from '../../../resources/databases/database.hal.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';
import { settlingPoll } from '../../../resources/databases/use-databases.ts';

/**
 * GET /databases?per_page=5000 with its embeds: the only source of every database's disk size (there is
 * no disk list, and the start-up list is fetched `no_embed`, contract §5.8 and §7). Only the /databases
 * page asks for it, so boot stays light; the page shows the bare cached list at once and fills the Disk
 * Size column when this answers.
 */
export function useDatabasesWithDisks() {
  const { phase } = useSession();
  return useQuery({
    queryKey: [...databaseKeys.list(), 'with-disks'] as const,
    queryFn: async ({ signal }) => {
      return (
        await allPages<DatabaseResource>('api', `/databases?per_page=${MAX_PAGE_SIZE}`, 'databases', signal)
      ).map(fromDatabaseResource);
    },
    enabled: phase === 'authenticated',
    refetchInterval: (query) => settlingPoll(query.state.data),
  });
}
