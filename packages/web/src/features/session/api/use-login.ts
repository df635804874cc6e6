import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SessionToken, sessionStore } from '../../../lib/session-store.ts';
import { type Credentials, createToken } from './create-token.ts';

/** spec 1 §4 "Login" steps 1 to 4: the caller routes afterwards (step 6). */
export async function logIn(credentials: Credentials): Promise<SessionToken> {
  const token = await createToken(credentials, 'session');
  sessionStore.signIn(token);
  // Step 3: a plain password login also gets an elevated token, sparing an immediate re-prompt.
  if (!credentials.otpToken && !credentials.u2f) {
    try {
      sessionStore.setElevatedToken(await createToken(credentials, 'elevated'));
    } catch {
      // The session is already valid; pages that need elevation will ask for the password again.
    }
  }
  return token;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: Credentials) => {
      const token = await logIn(credentials);
      await queryClient.invalidateQueries();
      return token;
    },
  });
}
