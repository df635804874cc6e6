import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import type { Home } from '../../../resources/home/home.hal.ts';
import { homeKeys } from './home-keys.ts';

/** DELETE /organizations/:id/home/feedback_banner: the caller's banner goes, on every device. */
export function useDismissFeedbackBanner(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<EmptyResponse>(
        'api',
        `/organizations/${encodeURIComponent(organizationId)}/home/feedback_banner`,
        { method: 'DELETE' },
      ),
    onSuccess: () => {
      // The server keeps it dismissed; the cached home says so at once rather than at the next poll.
      queryClient.setQueryData<Home>(homeKeys.detail(organizationId), (home) =>
        home ? { ...home, feedbackBannerDismissed: true } : home,
      );
    },
  });
}
