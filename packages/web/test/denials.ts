import { plainDenial } from '@berth/core';

/**
 * The accessible description of a control denied with `denial`: the spec's text, then its plain words
 * when core has them (issue 20). `environment` is the handle the shell knows for the denial's
 * environment, if the test renders one.
 */
export function deniedDescription(denial: string, environment?: string): string {
  const plain = plainDenial(denial, () => environment);
  return plain ? `${denial} ${plain}` : denial;
}
