// The vulnerability screens draw with the shared chart host (renderer/common/EChart.tsx).
export { EChart, type ChartClick } from '../../common/EChart.tsx';
