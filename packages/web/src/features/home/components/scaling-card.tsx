import { formatUsd, MB_PER_GB } from '@berth/core';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { Home } from '../../../resources/home/home.hal.ts';
import { HomeCard, HomeFacts } from './home-card.tsx';

const counted = (count: number, one: string, many: string) =>
  `${count.toLocaleString()} ${count === 1 ? one : many}`;
const services = (count: number) => counted(count, 'service', 'services');

/**
 * spec 3 §2 "A scaling summary": the services' containers and memory, those that size themselves, and
 * the sizing recommendations in force (spec 2 §4), with what scaling down would save.
 */
export function ScalingCard({ scaling }: { scaling: Home['scaling'] }) {
  const memoryGb = scaling.containerMemoryMb / MB_PER_GB;
  return (
    <HomeCard title="Scaling" action={<Link to={paths.services}>View services</Link>}>
      <HomeFacts
        facts={[
          {
            name: 'Services',
            value: `${services(scaling.services)}, ${counted(scaling.containers, 'container', 'containers')}, ${memoryGb.toLocaleString(undefined, { maximumFractionDigits: 1 })} GB`,
          },
          {
            name: 'Autoscaling',
            value: `${services(scaling.autoscalingServices)} (${scaling.horizontalAutoscalingServices.toLocaleString()} horizontal, ${scaling.verticalAutoscalingServices.toLocaleString()} vertical)`,
          },
          {
            name: 'Scale Down',
            value:
              scaling.scaleDownServices > 0
                ? `${services(scaling.scaleDownServices)}: save up to ${formatUsd(scaling.potentialSavings)} a month`
                : services(0),
          },
          { name: 'Scale Up', value: services(scaling.scaleUpServices) },
        ]}
      />
    </HomeCard>
  );
}
