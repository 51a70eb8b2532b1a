// A TCP proxy between a server under test and its database, which the test can cut and restore: what a database
// crash, a restart or a network partition looks like from the server's side.
import net from "node:net";

export type Cut =
  /** the database went away: open connections are reset, new ones refused (nothing listens) */
  | "refuse"
  /** the network went silent: connections stay open but nothing passes, new ones are accepted and hang */
  | "blackhole";

export class TcpProxy {
  private server: net.Server;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  /** connections still waiting out connectDelayMs, not yet forwarded */
  private readonly held = new Set<net.Socket>();
  private mode: "open" | Cut = "open";
  /** how long a new connection waits before it is forwarded (a database slow to accept, a loaded machine) */
  connectDelayMs = 0;
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = this.listener();
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.listen(0);
    return proxy;
  }

  /** the same URL with host and port pointing at this proxy */
  url(databaseUrl: string): string {
    const u = new URL(databaseUrl);
    u.hostname = "127.0.0.1";
    u.port = String(this.port);
    return u.toString();
  }

  async cut(how: Cut): Promise<void> {
    this.mode = how;
    if (how === "refuse") {
      this.dropAll();
      await new Promise((resolve) => this.server.close(resolve));
    }
    // blackhole: each pair stops forwarding (see pipe); sockets stay open.
  }

  async restore(): Promise<void> {
    const was = this.mode;
    this.mode = "open";
    if (was === "refuse") {
      this.server = this.listener();
      await this.listen(this.port);
    } else {
      // A partition that heals: what was held back is lost, as a peer that timed out would see it. The pairs
      // held open are closed, so both ends find out.
      this.dropAll();
    }
  }

  async close(): Promise<void> {
    this.dropAll();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }

  /** Every connection ends: the forwarded pairs, both sides, and those still held back. */
  private dropAll() {
    for (const socket of this.held) socket.destroy();
    this.held.clear();
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  private listener() {
    return net.createServer((client) => {
      if (this.connectDelayMs > 0) {
        // Held, so that a cut or close ends it too (a refused database accepts nothing, and server.close waits).
        client.pause();
        this.held.add(client);
        const timer = setTimeout(() => {
          this.held.delete(client);
          if (client.destroyed) return;
          client.resume();
          this.forward(client);
        }, this.connectDelayMs);
        client
          .on("close", () => {
            clearTimeout(timer);
            this.held.delete(client);
          })
          .on("error", () => client.destroy());
        return;
      }
      this.forward(client);
    });
  }

  private forward(client: net.Socket) {
    const upstream = net.connect(this.target.port, this.target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of pair) s.on("error", end).on("close", end);
    this.pipe(client, upstream);
    this.pipe(upstream, client);
  }

  /** Forwards while open; drops everything while blackholed. */
  private pipe(from: net.Socket, to: net.Socket) {
    from.on("data", (chunk) => {
      if (this.mode === "open") to.write(chunk);
    });
  }

  private listen(port: number) {
    return new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => {
        this.port = (this.server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }
}
