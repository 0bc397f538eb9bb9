// The benches' one median: of an odd count the middle value, of an even count the upper middle.
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Latency figures of one kind of request, in ms. */
export type Stats = { n: number; mean: number; p50: number; p95: number; p99: number; max: number };

/** What a load phase (the service, bare Temporal, Flowable) measures of its workload. */
export interface LoadFigures {
  instances: number;
  wallS: number;
  perSecond: number;
  start: Stats;
  approve: Stats;
  todo: Stats;
  cpuMsPerInstanceTotal: number;
  loadClientCpuMsPerInstance: number;
}

/** `of` against `base`, figure by figure (two decimals): the ratio lines every comparison prints. */
export function loadRatios(
  base: Pick<LoadFigures, 'start' | 'approve' | 'perSecond' | 'cpuMsPerInstanceTotal'>,
  of: Pick<LoadFigures, 'start' | 'approve' | 'perSecond' | 'cpuMsPerInstanceTotal'>,
): Record<'startP50' | 'approveP50' | 'throughput' | 'cpuPerInstance', number> {
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    startP50: ratio(of.start.p50, base.start.p50),
    approveP50: ratio(of.approve.p50, base.approve.p50),
    throughput: ratio(of.perSecond, base.perSecond),
    cpuPerInstance: ratio(of.cpuMsPerInstanceTotal, base.cpuMsPerInstanceTotal),
  };
}
