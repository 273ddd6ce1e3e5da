/**
 * `@a2a-js/sdk` loaded on first use: importing `@skein/a2a` costs nothing until a server answers
 * its first request or a remote agent makes its first call (the SDK's modules take ~200 ms to load).
 */
type Core = typeof import('@a2a-js/sdk');
type Server = typeof import('@a2a-js/sdk/server');
type Errors = typeof import('@a2a-js/sdk/errors');
type LegacyServer = typeof import('@a2a-js/sdk/compat/v0_3/server');
type Client = typeof import('@a2a-js/sdk/client');
type LegacyClient = typeof import('@a2a-js/sdk/compat/v0_3/client');

export interface ServerSdk {
  core: Core;
  server: Server;
  errors: Errors;
  legacy: LegacyServer;
}

export interface ClientSdk {
  core: Core;
  client: Client;
  errors: Errors;
  legacy: LegacyClient;
}

let server: Promise<ServerSdk> | undefined;
let client: Promise<ClientSdk> | undefined;

/** The SDK's server side (and what it shares with the client). */
export function serverSdk(): Promise<ServerSdk> {
  server ??= Promise.all([
    import('@a2a-js/sdk'),
    import('@a2a-js/sdk/server'),
    import('@a2a-js/sdk/errors'),
    import('@a2a-js/sdk/compat/v0_3/server'),
  ]).then(([core, srv, errors, legacy]) => ({ core, server: srv, errors, legacy }));
  return server;
}

/** The SDK's client side. */
export function clientSdk(): Promise<ClientSdk> {
  client ??= Promise.all([
    import('@a2a-js/sdk'),
    import('@a2a-js/sdk/client'),
    import('@a2a-js/sdk/errors'),
    import('@a2a-js/sdk/compat/v0_3/client'),
  ]).then(([core, cl, errors, legacy]) => ({ core, client: cl, errors, legacy }));
  return client;
}
