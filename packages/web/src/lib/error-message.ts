/** The text to show for something thrown: an Error's message (an ApiError carries the server's). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}
