/**
 * Regular-expression jobs, run inside a bounded worker (preparers/sandbox); see regex.ts for the job
 * shapes.
 */
export function handle(job) {
  const re = new RegExp(job.source, job.flags);
  if (job.op === 'test') return re.test(job.text);
  return job.literal ? job.text.replace(re, () => job.replacement) : job.text.replace(re, job.replacement);
}
