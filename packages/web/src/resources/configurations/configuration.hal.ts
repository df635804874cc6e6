import type { ConfigurationResource } from '@berth/core';
import { idOf } from '../../lib/hal.ts';

/** contract §4.3 configuration: an app's variables at one moment (a null value unsets the variable). */
export interface Configuration {
  id: string;
  env: Record<string, string | null>;
}

export function fromConfigurationResource(configuration: ConfigurationResource): Configuration {
  return { id: idOf(configuration), env: configuration.env };
}
