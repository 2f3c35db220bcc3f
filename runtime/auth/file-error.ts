// The start-up error of an authentication input file (token file, webhook
// kubeconfig, authentication configuration): which file, which line when one
// is to blame, and what is wrong. Messages never quote a credential.

export class FileError extends Error {
  readonly path: string;
  readonly line?: number;

  constructor(path: string, message: string, line?: number) {
    super(message);
    this.name = 'FileError';
    this.path = path;
    this.line = line;
  }
}
