export { TestimonialsScreen } from "../dashboard-screens";
