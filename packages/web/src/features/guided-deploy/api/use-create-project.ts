import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createProject, type ProjectDraft } from './create-project.ts';

/** spec 3 §4 Project creation; the environment lists, counts and costs change with it. */
export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: ProjectDraft) => createProject(draft),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
