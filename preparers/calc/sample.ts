import { en, Faker } from '@faker-js/faker';
import { type CalcDoc, calcDocSchema } from './schema.ts';

/**
 * A typical order sheet of `rows` rows × 8 columns (text, int, currency, percent, date), a
 * total formula under the data, a frozen header and a chart of the first 20 rows: the
 * benchmarks' workload. Seeded, so every call gives the same workbook.
 */
export function sampleCalcDoc(rows: number): CalcDoc {
  const faker = new Faker({ locale: [en], seed: 7 });
  const data = Array.from({ length: rows }, () => [
    faker.company.name(),
    faker.location.city(),
    faker.commerce.department(),
    faker.number.int({ min: 1, max: 500 }),
    faker.number.float({ min: 1, max: 999, fractionDigits: 2 }),
    faker.number.float({ min: 0, max: 1, fractionDigits: 3 }),
    faker.date.between({ from: '2024-01-01', to: '2024-12-31' }).toISOString().slice(0, 10),
    faker.datatype.boolean() ? 'yes' : 'no',
  ]);
  const charted = Math.min(rows, 20) + 1;
  return calcDocSchema.parse({
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
        rows: data,
        formulas: [{ cell: `D${rows + 3}`, formula: `SUM(D2:D${rows + 1})` }],
        freeze: { rows: 1, cols: 0 },
      },
    ],
    charts: [
      {
        sheet: 'Orders',
        type: 'col',
        title: 'Units',
        categories: `A2:A${charted}`,
        values: [`D2:D${charted}`],
      },
    ],
  });
}
