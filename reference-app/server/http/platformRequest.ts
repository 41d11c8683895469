// The mark on the platform's own outgoing requests, below both the URL policy that sends it
// (runtimes/http/urlPolicy.ts, which re-exports it) and the dev mailbox that refuses it
// (mail/mailboxRoutes.ts).

/**
 * Sent with every request the platform makes to a URL someone else chose. The dev mailbox refuses
 * requests that carry it: the platform's own request comes from this machine, and must not count
 * as its owner reading their mail.
 */
export const PLATFORM_REQUEST_HEADER = 'limelight-platform-request';
export const platformRequestHeaders = { [PLATFORM_REQUEST_HEADER]: '1' } as const;
