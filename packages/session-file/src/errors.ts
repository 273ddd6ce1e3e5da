import { SessionError, errorMessage } from '@skein/core';

/** The `code` of a Node.js file-system error, if it is one. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;
}

/** Turns a file-system error into a `SessionError` that names the file and says what to do. */
export function fsError(error: unknown, action: string, file: string, root: string): SessionError {
  const code = errnoCode(error);
  const detail = errorMessage(error);
  const hint =
    code === 'ENOTDIR' || code === 'EEXIST'
      ? `a part of the path is a file, not a directory (is the storage dir ${root} a file?); point storageDir at a directory.`
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied; give this process read and write access to the storage dir.'
        : code === 'ENOSPC'
          ? 'the disk is full; free space and retry (nothing stored was changed).'
          : code === 'EROFS'
            ? 'the file system is read-only; use a writable storageDir.'
            : detail;
  return new SessionError(`Cannot ${action} ${file}: ${hint}`, { location: file, cause: error });
}
