// A week's day labels as the charts write them in Chinese: the widest the x-axis names.
export const CHINESE_WEEK_LABELS: readonly string[] = [
  '11月22日周日',
  '11月23日周一',
  '11月24日周二',
  '11月25日周三',
  '11月26日周四',
  '11月27日周五',
  '11月28日周六',
];
