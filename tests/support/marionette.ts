import { connect, type Socket } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Minimal Marionette client: length-prefixed JSON packets over TCP on 127.0.0.1. */
export class Marionette {
  private buffer = Buffer.alloc(0);
  private waiters: ((message: unknown) => void)[] = [];
  private id = 0;
  constructor(private socket: Socket) {
    socket.on('data', (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      for (;;) {
        const colon = this.buffer.indexOf(58);
        if (colon < 0) return;
        const length = Number(this.buffer.subarray(0, colon).toString());
        if (this.buffer.length < colon + 1 + length) return;
        const message: unknown = JSON.parse(this.buffer.subarray(colon + 1, colon + 1 + length).toString());
        this.buffer = this.buffer.subarray(colon + 1 + length);
        this.waiters.shift()?.(message);
      }
    });
  }
  static async connect(port: number, deadline: number): Promise<Marionette> {
    while (Date.now() < deadline) {
      try {
        const socket = await new Promise<Socket>((resolve, reject) => {
          const s = connect(port, '127.0.0.1');
          s.once('connect', () => resolve(s));
          s.once('error', reject);
        });
        const client = new Marionette(socket);
        await client.next();
        return client;
      } catch {
        await sleep(500);
      }
    }
    throw new Error('Thunderbird did not open its Marionette port in time');
  }
  next(): Promise<unknown> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  async command(name: string, params: object): Promise<unknown> {
    const body = JSON.stringify([0, ++this.id, name, params]);
    this.socket.write(`${Buffer.byteLength(body)}:${body}`);
    const [, , error, result] = (await this.next()) as [number, number, unknown, unknown];
    if (error) throw new Error(`${name}: ${JSON.stringify(error).slice(0, 500)}`);
    return result;
  }
  async run<T>(script: string): Promise<T> {
    const result = (await this.command('WebDriver:ExecuteScript', { script, args: [] })) as { value: T };
    return result.value;
  }
  close(): void {
    this.socket.destroy();
  }
}
