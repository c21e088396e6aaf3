import type { TypeTest } from './context.ts';

/** schema.org types read as products. */
const PRODUCT_TYPES = new Set([
  'Product',
  'ProductGroup',
  'ProductModel',
  'IndividualProduct',
  'SomeProducts',
  'Vehicle',
  'Car',
  'Motorcycle',
  'DietarySupplement',
  'Drug',
]);

/** Common `LocalBusiness` subtypes; names ending in the suffixes below count too. */
const LOCAL_BUSINESS_TYPES = new Set([
  'LocalBusiness',
  'AnimalShelter',
  'ArchiveOrganization',
  'AutomotiveBusiness',
  'AutoRepair',
  'ChildCare',
  'Dentist',
  'DryCleaningOrLaundry',
  'EmergencyService',
  'EmploymentAgency',
  'EntertainmentBusiness',
  'FinancialService',
  'FoodEstablishment',
  'Bakery',
  'BarOrPub',
  'Brewery',
  'CafeOrCoffeeShop',
  'Distillery',
  'FastFoodRestaurant',
  'IceCreamShop',
  'Restaurant',
  'Winery',
  'GovernmentOffice',
  'HealthAndBeautyBusiness',
  'HomeAndConstructionBusiness',
  'Electrician',
  'GeneralContractor',
  'HVACBusiness',
  'HousePainter',
  'Locksmith',
  'MovingCompany',
  'Plumber',
  'RoofingContractor',
  'InternetCafe',
  'LegalService',
  'Attorney',
  'Notary',
  'Library',
  'LodgingBusiness',
  'BedAndBreakfast',
  'Campground',
  'Hostel',
  'Hotel',
  'Motel',
  'Resort',
  'VacationRental',
  'MedicalBusiness',
  'MedicalClinic',
  'Optician',
  'Pharmacy',
  'Physician',
  'ProfessionalService',
  'RadioStation',
  'RealEstateAgent',
  'RecyclingCenter',
  'SelfStorage',
  'ShoppingCenter',
  'SportsActivityLocation',
  'ExerciseGym',
  'Store',
  'TelevisionStation',
  'TouristInformationCenter',
  'TravelAgency',
]);
const LOCAL_BUSINESS_SUFFIXES = /(?:Store|Shop|Restaurant|Business|Agency|Agent|Office|Clinic|Contractor|Service|Dealer|Salon|Spa|Center|Centre|Club|Gym)$/;

/** `Organization` and its non-local subtypes; local businesses are organizations too. */
const ORGANIZATION_TYPES = new Set([
  'Organization',
  'Corporation',
  'NGO',
  'OnlineBusiness',
  'OnlineStore',
  'EducationalOrganization',
  'CollegeOrUniversity',
  'School',
  'GovernmentOrganization',
  'MedicalOrganization',
  'NewsMediaOrganization',
  'PerformingGroup',
  'SportsOrganization',
  'SportsTeam',
  'Airline',
  'Consortium',
  'LibrarySystem',
  'ResearchOrganization',
  'WorkersUnion',
  'Cooperative',
]);

/** Types that describe a dwelling or a listing of one. */
const REAL_ESTATE_TYPES = new Set([
  'RealEstateListing',
  'Accommodation',
  'Apartment',
  'House',
  'SingleFamilyResidence',
  'Residence',
  'ApartmentComplex',
  'GatedResidenceCommunity',
  'Room',
]);

export const isProduct: TypeTest = (type) => PRODUCT_TYPES.has(type);
export const isLocalBusiness: TypeTest = (type) =>
  LOCAL_BUSINESS_TYPES.has(type) || (LOCAL_BUSINESS_SUFFIXES.test(type) && !ORGANIZATION_TYPES.has(type));
export const isOrganization: TypeTest = (type) => ORGANIZATION_TYPES.has(type) || isLocalBusiness(type);
export const isRealEstate: TypeTest = (type) => REAL_ESTATE_TYPES.has(type);
export const isReview: TypeTest = (type) => type === 'Review' || type === 'CriticReview' || type === 'UserReview' || type === 'EmployerReview';
export const isPostalAddress: TypeTest = (type) => type === 'PostalAddress';
