import { plainDenial } from '@berth/core';
import { useEnvironmentName } from '../../lib/environment-names.tsx';
import { Banner, type BannerVariant } from './banner.tsx';

/**
 * A rule's text where a page cannot show what it would (configuration, credentials), with its plain
 * words below when core has them (issue 20): what is missing, on which environment, whom to ask.
 */
export function DenialBanner({ denial, variant = 'warning' }: { denial: string; variant?: BannerVariant }) {
  const plain = plainDenial(denial, useEnvironmentName());
  return (
    <Banner variant={variant}>
      {denial}
      {plain ? ' ' : null}
      {plain ? <span className="banner-detail">{plain}</span> : null}
    </Banner>
  );
}
