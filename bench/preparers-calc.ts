import { faker } from '@faker-js/faker';
import { calcDocSchema, calcPreparer } from '../preparers/calc/index.ts';

/** Calc preparer throughput for the typical spec of issue 4: 1,000 rows × 8 columns, a chart. */
export async function benchCalc(
  files = 10,
): Promise<{ app: 'calc'; files: number; seconds: number; filesPerSecond: number }> {
  faker.seed(7);
  const rows = Array.from({ length: 1000 }, () => [
    faker.company.name(),
    faker.location.city(),
    faker.commerce.department(),
    faker.number.int({ min: 1, max: 500 }),
    faker.number.float({ min: 1, max: 999, fractionDigits: 2 }),
    faker.number.float({ min: 0, max: 1, fractionDigits: 3 }),
    faker.date.between({ from: '2024-01-01', to: '2024-12-31' }).toISOString().slice(0, 10),
    faker.datatype.boolean() ? 'yes' : 'no',
  ]);
  const doc = calcDocSchema.parse({
    sheets: [
      {
        name: 'Orders',
        columns: [
          { header: 'Customer', type: 'text' },
          { header: 'City', type: 'text' },
          { header: 'Department', type: 'text' },
          { header: 'Units', type: 'int' },
          { header: 'Price', type: 'currency' },
          { header: 'Discount', type: 'percent' },
          { header: 'Date', type: 'date' },
          { header: 'Paid', type: 'text' },
        ],
        rows,
        formulas: [{ cell: 'D1003', formula: 'SUM(D2:D1001)' }],
        freeze: { rows: 1, cols: 0 },
      },
    ],
    charts: [{ sheet: 'Orders', type: 'col', title: 'Units', categories: 'A2:A21', values: ['D2:D21'] }],
  });
  const start = performance.now();
  for (let i = 0; i < files; i++) await calcPreparer.build(`Desktop/orders-${i}.xlsx`, doc);
  const seconds = (performance.now() - start) / 1000;
  return { app: 'calc', files, seconds, filesPerSecond: files / seconds };
}
