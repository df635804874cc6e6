import type { UserResource } from '@berth/core';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { fromUserResource } from '../../../resources/users/user.hal.ts';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  company: string;
  /** An invitation code proves the email; none for a plain sign-up. */
  challengeToken?: string;
}

/** spec 1 §4 "Sign-up" steps 1 and 2 (the caller logs in): check the claim, then create the user. */
export async function createUser(input: NewUser) {
  const body = {
    name: input.name,
    email: input.email,
    password: input.password,
    company: input.company,
    challengeToken: input.challengeToken ?? '',
    origin: 'app',
  };
  if (!input.challengeToken)
    await apiRequest<EmptyResponse>('auth', '/claims/user', { method: 'POST', body });
  return fromUserResource(await apiRequest<UserResource>('auth', '/users', { method: 'POST', body }));
}
