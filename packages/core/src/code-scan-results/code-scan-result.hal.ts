import { z } from 'zod';
import { halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 code scan result: Berth reads `berth.yml` and reports it as `aptible_yml_*`. */
export const codeScanResultResource = z
  .strictObject({
    id: halId,
    _type: z.literal('code_scan_result'),
    dockerfile_present: z.boolean(),
    procfile_present: z.boolean(),
    aptible_yml_present: z.boolean(),
    dockerfile_data: z.string(),
    procfile_data: z.string(),
    aptible_yml_data: z.string(),
    languages_detected: z.array(z.string()).nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'app', 'operation']),
  })
  .meta({ id: 'CodeScanResult' });
export type CodeScanResultResource = z.infer<typeof codeScanResultResource>;
