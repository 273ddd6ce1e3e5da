/**
 * The desk's data: customers, orders, invoices and refunds, in one JSON file written atomically
 * (temp file + rename), so a refund issued before a crash is still there after it. Small on purpose:
 * a real desk would use its database here; the tools only see this interface.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface Customer {
  id: string;
  name: string;
  email: string;
}
export interface Order {
  id: string;
  customerId: string;
  item: string;
  amountEur: number;
  status: 'paid' | 'refunded';
}
export interface Invoice {
  id: string;
  orderId: string;
  amountEur: number;
  charges: number;
}
export interface Refund {
  id: string;
  orderId: string;
  amountEur: number;
  reason: string;
  at: string;
}

interface DeskData {
  customers: Customer[];
  orders: Order[];
  invoices: Invoice[];
  refunds: Refund[];
}

const SEED: DeskData = {
  customers: [
    { id: 'aiko', name: 'Aiko Tanaka', email: 'aiko@example.com' },
    { id: 'ben', name: 'Ben Okafor', email: 'ben@example.com' },
    { id: 'erin', name: 'Erin Silva', email: 'erin@example.com' },
  ],
  orders: [
    { id: '42', customerId: 'aiko', item: 'Noise-cancelling headphones', amountEur: 80, status: 'paid' },
    { id: '7', customerId: 'aiko', item: 'USB-C cable', amountEur: 12, status: 'paid' },
    { id: '108', customerId: 'ben', item: 'Standing desk', amountEur: 420, status: 'paid' },
    { id: '17', customerId: 'erin', item: 'Laptop stand', amountEur: 12, status: 'paid' },
  ],
  invoices: [
    { id: 'INV-42', orderId: '42', amountEur: 80, charges: 2 },
    { id: 'INV-7', orderId: '7', amountEur: 12, charges: 1 },
    { id: 'INV-108', orderId: '108', amountEur: 420, charges: 1 },
    { id: 'INV-17', orderId: '17', amountEur: 12, charges: 1 },
  ],
  refunds: [],
};

/**
 * The desk's records in `<dir>/desk-data.json` (seeded on first use). Read afresh by every operation:
 * another desk process on the same `--dir` may have changed them (its tool calls run inside its own
 * turn, which the session's claim keeps from overlapping ours). Changes made in this process go one
 * after the other (the web desk runs several conversations at once; each change reads what the one
 * before it wrote).
 */
export class DeskStore {
  readonly file: string;
  #changing: Promise<unknown> = Promise.resolve();

  constructor(dir: string) {
    this.file = join(dir, 'desk-data.json');
  }

  async #load(): Promise<DeskData> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as DeskData;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return structuredClone(SEED);
    }
  }

  /** Runs `change` (read, modify, save) after the changes before it in this process. */
  #change<T>(change: () => Promise<T>): Promise<T> {
    const run = this.#changing.then(change);
    this.#changing = run.catch(() => undefined);
    return run;
  }

  async #save(data: DeskData): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(data, null, 2));
    await rename(temp, this.file);
  }

  async order(
    id: string,
  ): Promise<(Order & { customer: Customer | undefined; invoice: Invoice | undefined }) | undefined> {
    const data = await this.#load();
    const order = data.orders.find((o) => o.id === id);
    if (!order) return undefined;
    return {
      ...order,
      customer: data.customers.find((c) => c.id === order.customerId),
      invoice: data.invoices.find((i) => i.orderId === id),
    };
  }

  async refunds(orderId: string): Promise<Refund[]> {
    return (await this.#load()).refunds.filter((r) => r.orderId === orderId);
  }

  /**
   * Refunds `amountEur` of an order, as a payment API with idempotency keys does: a request with a
   * key already used returns the refund made then instead of paying twice (a tool call cut by a crash
   * and run again on resume carries the same key, `context.idempotencyKey`); a new key is a new refund.
   */
  refund(orderId: string, amountEur: number, reason: string, idempotencyKey: string): Promise<Refund> {
    return this.#change(() => this.#refund(orderId, amountEur, reason, idempotencyKey));
  }

  async #refund(orderId: string, amountEur: number, reason: string, idempotencyKey: string): Promise<Refund> {
    const data = await this.#load();
    const already = data.refunds.find((r) => r.id === idempotencyKey);
    if (already) return already;
    const order = data.orders.find((o) => o.id === orderId);
    if (!order) throw new Error(`No order ${orderId}.`);
    const id = idempotencyKey;
    const refunded = data.refunds.filter((r) => r.orderId === orderId).reduce((sum, r) => sum + r.amountEur, 0);
    if (refunded + amountEur > order.amountEur)
      throw new Error(
        `Order ${orderId} was ${order.amountEur} EUR; ${refunded} EUR already refunded, so at most ${order.amountEur - refunded} EUR can be refunded.`,
      );
    const refund: Refund = { id, orderId, amountEur, reason, at: new Date().toISOString() };
    data.refunds.push(refund);
    if (refunded + amountEur === order.amountEur) order.status = 'refunded';
    await this.#save(data);
    return refund;
  }

  /** Removes a duplicate charge from an invoice. */
  reverseDuplicateCharge(invoiceId: string): Promise<Invoice> {
    return this.#change(async () => {
      const data = await this.#load();
      const invoice = data.invoices.find((i) => i.id === invoiceId);
      if (!invoice) throw new Error(`No invoice ${invoiceId}.`);
      if (invoice.charges < 2)
        throw new Error(`Invoice ${invoiceId} was charged once; there is no duplicate to reverse.`);
      invoice.charges = 1;
      await this.#save(data);
      return invoice;
    });
  }
}
