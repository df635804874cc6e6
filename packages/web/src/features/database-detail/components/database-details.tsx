import { cpuShare, databaseVersionSupport, type ScalingLabel } from '@berth/core';
import type { ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { Database, DatabaseImage } from '../../../resources/databases/database.hal.ts';
import type { Service } from '../../../resources/services/service.hal.ts';
import { ScalingRec } from '../../../resources/sizing/scaling-rec.tsx';

export interface DatabaseDetailsProps {
  database: Database;
  /** The database's service (size and profile), or null while unknown. */
  service: Pick<Service, 'id' | 'containerMemoryMb' | 'instanceClass'> | null;
  /** spec 2 §4: the Scaling Recommendations label of a service (features/sizing `useScalingLabels`). */
  scalingLabel?: (service: Pick<Service, 'id' | 'containerMemoryMb' | 'instanceClass'>) => ScalingLabel;
  image: DatabaseImage | null;
  /** The primary of a replica, linked (the route builds the link). */
  replicates: ReactNode;
}

/** spec 2 §2 database details. */
export function DatabaseDetails({
  database,
  service,
  image,
  replicates,
  scalingLabel,
}: DatabaseDetailsProps) {
  const disk = database.disk;
  const share = service ? cpuShare(service.instanceClass, service.containerMemoryMb) : null;
  return (
    <DetailList
      label="Database details"
      items={[
        { label: 'ID', value: database.id },
        { label: 'Disk IOPS', value: disk ? disk.provisionedIops : 'Unknown' },
        { label: 'Memory Limit', value: service ? `${service.containerMemoryMb / 1024} GB` : 'Unknown' },
        { label: 'Type', value: image?.description || database.type },
        { label: 'Disk Type', value: disk?.ebsVolumeType || 'Unknown' },
        { label: 'CPU Share', value: share === null ? 'Unknown' : share },
        { label: 'Disk Size', value: disk ? `${disk.sizeGb} GB` : 'Unknown' },
        { label: 'Backups', value: database.enableBackups ? 'Enabled' : 'Disabled' },
        // spec 2 §2: AES-(keyBytes × 8), e.g. 32 bytes → AES-256.
        { label: 'Disk Encryption', value: disk ? `AES-${disk.keyBytes * 8}` : 'Unknown' },
        { label: 'Profile', value: service?.instanceClass ?? 'Unknown' },
        { label: 'Created', value: formatDateTime(database.createdAt) },
        ...(database.initializeFromId ? [{ label: 'Replicates', value: replicates }] : []),
        {
          label: 'Scaling Recommendations',
          value: service && scalingLabel ? <ScalingRec label={scalingLabel(service)} /> : 'Right Sized',
        },
      ]}
    />
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * spec 2 §2: a version with an end-of-life date gets a notice; active maintenance ends 90 days after it
 * (core databaseVersionSupport), then the version reads as deprecated and no longer maintained.
 */
export function DatabaseVersionNotice({
  image,
  now = new Date(),
}: {
  image: DatabaseImage | null;
  now?: Date;
}) {
  if (!image) return null;
  const support = databaseVersionSupport(image.eolAt, now);
  const name = image.description || `${image.type} ${image.version}`;
  if (support.state === 'supported') return null;
  if (support.state === 'deprecated') {
    return (
      <Banner variant="error" title="End of life">
        {name} is deprecated and no longer maintained. Upgrade to a supported version.
      </Banner>
    );
  }
  return (
    <Banner variant="warning" title="End of life">
      {name} has reached its end of life. Active maintenance ends on{' '}
      {dateFormat.format(support.maintenanceEndsAt)}; upgrade before then.
    </Banner>
  );
}
