// The benches' one median: of an odd count the middle value, of an even count the upper middle.
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
