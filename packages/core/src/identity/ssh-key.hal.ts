import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 ssh_key. */
export const sshKeyResource = z
  .strictObject({
    id: halId,
    _type: z.literal('ssh_key'),
    name: z.string(),
    ssh_public_key: z.string(),
    md5_fingerprint: z.string(),
    sha256_fingerprint: z.string(),
    public_key_fingerprint: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'user']),
  })
  .meta({ id: 'SshKey' });
export type SshKeyResource = z.infer<typeof sshKeyResource>;

export const sshKeyCollection = halCollection('ssh_keys', sshKeyResource).meta({ id: 'SshKeyCollection' });
export type SshKeyCollection = z.infer<typeof sshKeyCollection>;
