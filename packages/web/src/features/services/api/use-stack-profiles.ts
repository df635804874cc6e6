import { useQuery } from '@tanstack/react-query';
import { stackQuery } from '../../../resources/stacks/use-stack.ts';

/** contract §4.3 stack: which container profile families the scale form offers (C, M, R). */
export function useStackProfiles(stackId: string | null) {
  return useQuery({
    ...stackQuery(stackId ?? ''),
    select: (stack) => stack.allowedFamilies,
    enabled: !!stackId,
  });
}
