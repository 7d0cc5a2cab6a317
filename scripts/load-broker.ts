// The MQTT broker of a load run (scripts/load.ts): an embedded Aedes broker on 127.0.0.1 that
// can be stopped and started again on the same port (fault 4, a broker outage).
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { Aedes } from 'aedes';

/** The load run's subscriber: the broker admits the host only once it has subscribed. */
export const SUBSCRIBER_ID = 'load-subscriber';
export interface Broker {
  aedes: Aedes;
  server: Server;
  port: number;
}
/**
 * An Aedes broker on 127.0.0.1. After a restart it answers the host's CONNECT only once the
 * subscriber has re-subscribed: an in-memory broker forgets subscriptions, and a host
 * republishing its outbox before the subscriber is back would publish to nobody.
 */
export async function startBroker(port: number): Promise<Broker> {
  let subscriberBack = false;
  const held: Array<() => void> = [];
  const aedes = await Aedes.createBroker({
    // The host's CONNACK waits (a refusal would make MQTT.js give up for good).
    authenticate: (client, _u, _p, cb) => {
      if (client.id === SUBSCRIBER_ID || subscriberBack) cb(null, true);
      else held.push(() => cb(null, true));
    },
  });
  aedes.on('subscribe', (_subs, client) => {
    if (client?.id !== SUBSCRIBER_ID) return;
    subscriberBack = true;
    for (const admit of held.splice(0)) admit();
  });
  const server = createServer(aedes.handle);
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { aedes, server, port: typeof address === 'object' && address ? address.port : port };
}
export async function stopBroker(b: Broker): Promise<void> {
  await new Promise<void>((r) => b.aedes.close(() => r()));
  await new Promise<void>((r) => b.server.close(() => r()));
}
