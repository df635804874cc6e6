import { createContext, type ReactNode, useContext } from 'react';

/** An environment's handle by its id, when the console has it. */
export type EnvironmentName = (environmentId: string) => string | undefined;

const unknown: EnvironmentName = () => undefined;

// The shell fills this from its start-up list of environments, so a denial can name the environment
// ("Needs Deployment on the staging environment") without the component importing a resource.
const EnvironmentNamesContext = createContext<EnvironmentName>(unknown);

export function EnvironmentNamesProvider({
  names,
  children,
}: {
  names: EnvironmentName;
  children: ReactNode;
}) {
  return <EnvironmentNamesContext value={names}>{children}</EnvironmentNamesContext>;
}

/** The handle of an environment by id; without the shell (a test) every name is unknown. */
export function useEnvironmentName(): EnvironmentName {
  return useContext(EnvironmentNamesContext);
}
