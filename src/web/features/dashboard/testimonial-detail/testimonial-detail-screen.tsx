export { TestimonialDetailScreen } from "../dashboard-screens";
