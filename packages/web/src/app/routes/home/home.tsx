import { hasFullVisibilityAnywhere } from '@berth/core';
import { useEffect, useRef } from 'react';
import { Link, Navigate } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { loadErrorText } from '../../../components/ui/data-table.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useDismissFeedbackBanner } from '../../../features/home/api/use-dismiss-feedback-banner.ts';
import { useHome } from '../../../features/home/api/use-home.ts';
import { ActivityCard } from '../../../features/home/components/activity-card.tsx';
import { CountCards } from '../../../features/home/components/count-cards.tsx';
import { FeedbackBanner } from '../../../features/home/components/feedback-banner.tsx';
import { ScalingCard } from '../../../features/home/components/scaling-card.tsx';
import { SecurityCard } from '../../../features/home/components/security-card.tsx';
import { TopSourceCard } from '../../../features/home/components/top-source-card.tsx';
import { OperationStatusBadge } from '../../../features/operations/components/operation-status-badge.tsx';
import { CommitDots } from '../../../features/sources/components/commit-dots.tsx';
import { focusElement, isFocusLost } from '../../../lib/focus.ts';
import { paths } from '../../../lib/paths.ts';
import type { Organization } from '../../../resources/organizations/organization.hal.ts';
import { isHomeEnabled } from '../../feature-flags.ts';
import { useConsoleContext } from '../../shell/use-console.ts';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';

function HomePage({ organization }: { organization: Organization }) {
  const home = useHome(organization.id);
  const fullVisibility = hasFullVisibilityAnywhere(useConsoleContext().actor);
  const dismiss = useDismissFeedbackBanner(organization.id);
  // Gone as soon as Dismiss is pressed; back, with the reason, if the server refused.
  const bannerShown =
    home.data !== undefined && !(home.data.feedbackBannerDismissed || dismiss.isPending || dismiss.isSuccess);
  const heading = useRef<HTMLHeadingElement>(null);
  const hadBanner = useRef(false);
  // Dismiss goes with its banner: focus, fallen to the page, goes to the heading rather than the top.
  useEffect(() => {
    if (hadBanner.current && !bannerShown && isFocusLost()) focusElement(heading.current);
    hadBanner.current = bannerShown;
  }, [bannerShown]);
  return (
    <>
      <PageHeader
        title="Home"
        description={`${organization.name} at a glance, as far as you may see it.`}
        titleRef={heading}
      />
      <QueryState query={home} loadingLabel="Loading home" skeletonLines={6}>
        {(data) => (
          <div className="home">
            {bannerShown ? (
              <FeedbackBanner
                onDismiss={() => dismiss.mutate()}
                dismissing={dismiss.isPending}
                feedbackLink={<Link to={paths.support}>Share feedback</Link>}
              />
            ) : null}
            {dismiss.isError ? <Banner variant="error">{loadErrorText(dismiss.error.message)}</Banner> : null}
            <CountCards home={data} />
            <div className="home-grid">
              <ScalingCard scaling={data.scaling} />
              <TopSourceCard
                source={data.topSource}
                dots={
                  data.topSource ? (
                    <CommitDots commits={data.topSource.liveCommits} total={data.topSource.liveCommitCount} />
                  ) : null
                }
              />
              <ActivityCard
                activities={data.activities}
                status={(operation) => <OperationStatusBadge status={operation.status} />}
                resource={(operation) => <OperationResourceLink operation={operation} />}
              />
              <SecurityCard
                security={data.security}
                action={
                  // The dashboard needs Full Visibility somewhere, as the side navigation's entry does.
                  fullVisibility ? (
                    <Link to={paths.securityCompliance}>View Security & Compliance</Link>
                  ) : undefined
                }
              />
            </div>
          </div>
        )}
      </QueryState>
    </>
  );
}

/**
 * spec 3 §2 Home, at "/": where everyone with an organization lands (issue 38). With the home flag off
 * (BERTH_HOME=off), or without an organization, "/" goes to the environments (spec 1 §2).
 */
function HomeRoute() {
  const { organization } = useConsoleContext();
  if (!organization || !isHomeEnabled(organization.id)) return <Navigate to={paths.environments} replace />;
  return <HomePage organization={organization} />;
}

export { HomeRoute as Component };
