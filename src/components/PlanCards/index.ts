export { PlanCards } from './PlanCards';
export type { PlanCardsProps } from './PlanCards';
