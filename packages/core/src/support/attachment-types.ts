import { plainTextProblem } from '../text/plain-text.ts';
import {
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_FILE_NAME_MAX_LENGTH,
  supportMessages,
} from './support.schema.ts';

// What a support ticket may carry: screenshots, PDFs and text (logs, CSV, JSON). A file is taken only when
// its name's extension and its content agree, so a page or a program renamed to .png is refused.
// Written here rather than taken from a library: five signatures and a UTF-8 check are all it needs.

export interface AttachmentType {
  /** The media type the file is served with (always as a download). */
  mediaType: string;
  extensions: readonly string[];
}

export const SUPPORT_ATTACHMENT_TYPES: readonly AttachmentType[] = [
  { mediaType: 'image/png', extensions: ['png'] },
  { mediaType: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  { mediaType: 'image/gif', extensions: ['gif'] },
  { mediaType: 'image/webp', extensions: ['webp'] },
  { mediaType: 'application/pdf', extensions: ['pdf'] },
  { mediaType: 'text/plain', extensions: ['txt', 'log', 'csv', 'json'] },
];

/** The extensions the file picker offers (`accept`). */
export const SUPPORT_ATTACHMENT_ACCEPT = SUPPORT_ATTACHMENT_TYPES.flatMap((type) =>
  type.extensions.map((extension) => `.${extension}`),
).join(',');

export const attachmentTypeMessages = {
  type: 'Attach PNG, JPEG, GIF, WebP or PDF files, or plain text (.txt, .log, .csv, .json)',
  content: (fileName: string) => `The content of ${fileName} does not match its type`,
  fileName: 'The file needs a name of at most 255 characters, on one line',
} as const;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Text: valid UTF-8 with no control character but tab, line feed, form feed and carriage return. */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f)
      return false;
  }
  return true;
}

/** The media type the content is, among those taken, or null. */
export function sniffAttachmentType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  return isPlainText(bytes) ? 'text/plain' : null;
}

/** The type a file name's extension claims, among those taken. */
export function attachmentTypeOfName(fileName: string): AttachmentType | null {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = fileName.slice(dot + 1).toLowerCase();
  return SUPPORT_ATTACHMENT_TYPES.find((type) => type.extensions.includes(extension)) ?? null;
}

/** The file name's problem, or null: bounded, one plain line, with a known extension. */
export function attachmentNameProblem(fileName: string): string | null {
  if (fileName.length === 0 || fileName.length > SUPPORT_FILE_NAME_MAX_LENGTH)
    return attachmentTypeMessages.fileName;
  if (plainTextProblem(fileName, 'The file name') !== null || /[/\\]/.test(fileName))
    return attachmentTypeMessages.fileName;
  return attachmentTypeOfName(fileName) ? null : attachmentTypeMessages.type;
}

/**
 * Whether a file may be attached: its name is plain and names a taken type, its size is within the
 * bound, and its content is that type. The media type to serve it with, or the reason it is refused.
 */
export function checkAttachment(
  fileName: string,
  bytes: Uint8Array,
): { mediaType: string } | { problem: string } {
  const nameProblem = attachmentNameProblem(fileName);
  if (nameProblem) return { problem: nameProblem };
  if (bytes.length === 0) return { problem: supportMessages.empty };
  if (bytes.length > SUPPORT_ATTACHMENT_MAX_BYTES) return { problem: supportMessages.tooLarge };
  const claimed = attachmentTypeOfName(fileName);
  const found = sniffAttachmentType(bytes);
  if (!claimed || found !== claimed.mediaType) return { problem: attachmentTypeMessages.content(fileName) };
  return { mediaType: found };
}
