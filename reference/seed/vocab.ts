/**
 * Word pools for a bilingual (fr-CA / en-US) Québec home-and-pantry store.
 * Entries tagged 'fr' or 'en' pick the language of the texts built around them.
 */
export type Lang = 'fr' | 'en';

export const STORE_NAME = 'La Maison Boréale';
export const STORE_HOST = 'lamaisonboreale.example';
export const CDN = 'https://cdn.lamaisonboreale.example';

export const FIRST_NAMES: Array<[string, Lang]> = [
  ['Émilie', 'fr'], ['François', 'fr'], ['Hélène', 'fr'], ['Jérôme', 'fr'], ['Geneviève', 'fr'], ['Benoît', 'fr'],
  ['Zoé', 'fr'], ['Noémie', 'fr'], ['Mathéo', 'fr'], ['Chloé', 'fr'], ['Léa', 'fr'], ['Gaëlle', 'fr'],
  ['Marie-Ève', 'fr'], ['Jean-François', 'fr'], ['Anaïs', 'fr'], ['Rémi', 'fr'], ['Josée', 'fr'], ['Frédéric', 'fr'],
  ['Océane', 'fr'], ['Stéphane', 'fr'], ['Andrée-Anne', 'fr'], ['Éloïse', 'fr'], ['Loïc', 'fr'], ['Mélanie', 'fr'],
  ['John', 'en'], ['Sarah', 'en'], ['Michael', 'en'], ['Olivia', 'en'], ['Emma', 'en'], ['Liam', 'en'],
  ['Madison', 'en'], ['Noah', 'en'], ['Chloe', 'en'], ['Ethan', 'en'], ['Grace', 'en'], ['Daniel', 'en'],
];

export const LAST_NAMES = [
  'Tremblay', 'Gagnon', 'Roy', 'Côté', 'Bouchard', 'Gauthier', 'Morin', 'Lavoie', 'Fortin', 'Gagné',
  'Ouellet', 'Pelletier', 'Bélanger', 'Lévesque', 'Bergeron', 'Leblanc', 'Paquette', 'Girard', 'Simard', 'Boucher',
  'Caron', 'Beaulieu', 'Cloutier', 'Dubé', 'Poirier', 'Fournier', 'Lapointe', 'Leclerc', 'Lefebvre', 'Thériault',
  "D'Amours", 'St-Pierre', 'Bérubé', 'Desjardins', 'Smith', 'Johnson', 'Williams', 'Brown', 'Nguyen', 'Martin',
  'MacDonald', "O'Neil", 'Wilson', 'Taylor', 'Campbell', 'Anderson',
];

export const COMPANIES = [
  'Boulangerie Gagnon inc.', 'Café Côté & fils', 'Les Entreprises Bélanger ltée', 'Épicerie fine Lévesque',
  'Auberge du Château', 'Fromagerie des Trois-Rivières', 'Northwind Traders', 'Contoso Ltd.', 'Fabrikam Inc.',
  'Restaurant Le Québécois', 'Cabane à sucre Tremblay', 'Atelier Pelletier', 'Studio Océane design',
];

/** product base names */
export const PRODUCTS: Array<[string, Lang]> = [
  ['Théière en fonte', 'fr'], ['Crème brûlée à l’érable', 'fr'], ['Sirop d’érable ambré', 'fr'], ['Tasse en grès', 'fr'],
  ['Chocolat noir 70 %', 'fr'], ['Tuque en laine mérinos', 'fr'], ['Bougie parfumée au sapin baumier', 'fr'],
  ['Couteau de chef forgé', 'fr'], ['Planche à découper en érable', 'fr'], ['Cidre de glace', 'fr'],
  ['Café torréfié Trois-Rivières', 'fr'], ['Confiture de bleuets du Lac-Saint-Jean', 'fr'], ['Beurre d’érable', 'fr'],
  ['Poêlon en fonte émaillée', 'fr'], ['Nappe en lin lavé', 'fr'], ['Savon artisanal à l’avoine', 'fr'],
  ['Miel de trèfle', 'fr'], ['Pâte de fruits aux canneberges', 'fr'], ['Bol à café au lait', 'fr'],
  ['Herbes salées du Bas-du-Fleuve', 'fr'], ['Thé du Labrador', 'fr'], ['Plateau de service Château', 'fr'],
  ['Carafe en verre soufflé', 'fr'], ['Tablier en denim brut', 'fr'], ['Moulin à poivre en frêne', 'fr'],
  ['Caramel à la fleur de sel', 'fr'], ['Ensemble à fondue', 'fr'],
  ['Cast iron skillet', 'en'], ['Maple syrup gift set', 'en'], ['Linen tea towel', 'en'], ['Ceramic pour-over dripper', 'en'],
  ['Wool throw blanket', 'en'], ['Enamel camping mug', 'en'], ['Beeswax food wraps', 'en'], ['Copper kettle', 'en'],
  ['Loose-leaf Earl Grey', 'en'], ['Stoneware serving bowl', 'en'], ['Walnut salad servers', 'en'],
  ['Hand-poured soy candle', 'en'], ['Cheese knife set', 'en'],
];

/** appended to product names beyond the first round; '' keeps the base name */
export const PRODUCT_QUALIFIERS = [
  '', ' – édition Château', ' Montréal', ' Québec', ' Trois-Rivières', ' artisanal', ' deluxe',
  ' (lot de 2)', ' – format familial', ' – gift edition', ' XL', ' mini', ' – série Boréale',
];

export const VENDORS = [
  'Fonderie Côté', 'Érablière du Rang 4', 'Atelier Boréal', 'Maison Lavoie & fils', 'Chocolaterie Bélanger',
  'Poterie des Forges', 'Northwind Traders', 'Contoso Kitchen', 'Fabrikam Home', 'Tisanerie Québécoise',
  'Les Jardins du Château', 'Brûlerie Saint-Roch', 'Savonnerie Gaspésienne', 'Ébénisterie Fortin',
];

export const CATEGORIES: Array<[string, Lang]> = [
  ['Thés et infusions', 'fr'], ['Vaisselle', 'fr'], ['Ustensiles de cuisine', 'fr'], ['Épicerie fine', 'fr'],
  ['Décoration', 'fr'], ['Chocolaterie', 'fr'], ['Produits de l’érable', 'fr'], ['Fromages et charcuteries', 'fr'],
  ['Cafés', 'fr'], ['Vins et cidres', 'fr'], ['Accessoires', 'fr'], ['Cadeaux', 'fr'], ['Papeterie', 'fr'],
  ['Textiles de maison', 'fr'], ['Soins et beauté', 'fr'], ['Jardin', 'fr'], ['Bougies', 'fr'], ['Céramique', 'fr'],
  ['Kitchenware', 'en'], ['Gift cards', 'en'], ['Tea accessories', 'en'], ['Outdoor living', 'en'],
  ['Pantry staples', 'en'], ['Bakeware', 'en'], ['Cookbooks', 'en'], ['Bar & glassware', 'en'],
];

export const COLLECTIONS: Array<[string, Lang]> = [
  ['Nouveautés', 'fr'], ['Fête des mères', 'fr'], ['Noël québécois', 'fr'], ['Cabane à sucre', 'fr'],
  ['Été en terrasse', 'fr'], ['Soldes d’hiver', 'fr'], ['Collection Château', 'fr'],
  ['Artisans de Trois-Rivières', 'fr'], ['Fabriqué à Montréal', 'fr'], ['Saveurs de Québec', 'fr'],
  ['Rentrée', 'fr'], ['Idées-cadeaux à moins de 25 $', 'fr'], ['Coups de cœur', 'fr'], ['Édition limitée', 'fr'],
  ['Best sellers', 'en'], ['Holiday gift guide', 'en'], ['Back to school', 'en'], ['Staff picks', 'en'],
  ['Cozy cabin', 'en'], ['Last chance', 'en'], ['Spring cleaning', 'en'], ['Made in Canada', 'en'],
];

export const TAGS = [
  'érable', 'fait au Québec', 'cadeau', 'nouveauté', 'bio', 'fonte', 'thé', 'édition limitée', 'végane',
  'sans gluten', 'artisanal', 'local', 'handmade', 'gift', 'bestseller', 'eco-friendly', 'fair trade', 'sale',
];

export const COLORS = ['Rouge', 'Noir', 'Bleu marine', 'Crème', 'Naturel', 'Vert forêt', 'Ivory', 'Charcoal', 'Sage', 'Bordeaux'];
export const SIZES = ['P', 'M', 'G', 'TG', 'S', 'L', 'XL', '250 ml', '500 ml', '1 L', '20 cm', '26 cm'];
export const MATERIALS = ['Fonte', 'Grès', 'Érable', 'Lin', 'Laine mérinos', 'Cotton', 'Walnut', 'Verre', 'Cuivre', 'Porcelaine'];
export const DURATIONS = ['3 mois', '6 mois', '12 mois', '1 year', '2 years'];

export const PRODUCT_PHRASES: Record<Lang, string[]> = {
  fr: [
    'Fabrication artisanale au Québec.', 'Idéal pour les soirées d’hiver.', 'Un cadeau apprécié des gourmets.',
    'Lavable à la main seulement.', 'Matériaux durables et de provenance locale.', 'Édition produite en petite série.',
    'Parfait pour la cabane à sucre.', 'Conçu à Montréal, fabriqué à Trois-Rivières.',
  ],
  en: [
    'Handmade in small batches.', 'Perfect for cozy winter evenings.', 'A favourite gift for food lovers.',
    'Hand wash only.', 'Built to last for generations.', 'Designed in Montréal.', 'Dishwasher safe.',
  ],
};

export const REVIEW_COMMENTS: Record<Lang, string[]> = {
  fr: [
    'Excellent produit, livraison rapide !', 'Très belle qualité, je recommande.', 'Conforme à la description.',
    'Un peu cher, mais ça vaut le coût.', 'Déçue : la couleur est plus pâle qu’en photo.', 'Parfait pour offrir à Noël.',
    'Service à la clientèle impeccable à Montréal.', '',
  ],
  en: [
    'Great quality, fast shipping!', 'Exactly as described.', 'Pricey but worth it.', 'Arrived damaged, replaced quickly.',
    'My new favourite mug.', 'Would buy again.',
  ],
};

export const BLOG_TITLES: Array<[string, Lang]> = [
  ['Recette : crème brûlée à l’érable', 'fr'], ['Visite guidée du Château Frontenac', 'fr'],
  ['Cinq thés pour traverser l’hiver', 'fr'], ['Les marchés de Noël de Montréal', 'fr'],
  ['Entretenir sa théière en fonte', 'fr'], ['Rencontre avec les artisans de Trois-Rivières', 'fr'],
  ['Le temps des sucres est arrivé', 'fr'], ['Nos idées-cadeaux pour la fête des Pères', 'fr'],
  ['Dresser une belle table des fêtes', 'fr'], ['Cueillette de bleuets au Lac-Saint-Jean', 'fr'],
  ['Le café, de la fève à la tasse', 'fr'], ['Pique-nique sur les plaines d’Abraham', 'fr'],
  ['Cuisiner avec des herbes salées', 'fr'], ['Découverte : la poterie de Baie-Saint-Paul', 'fr'],
  ['Our favourite cast iron tips', 'en'], ['How to brew the perfect pot of tea', 'en'],
  ['Behind the scenes at our Québec City warehouse', 'en'], ['Holiday gift guide: under $50', 'en'],
  ['Caring for linen the right way', 'en'], ['Meet the makers: Montréal edition', 'en'],
  ['A weekend in Québec City', 'en'], ['Five ways to use maple butter', 'en'],
];

export const BLOG_SENTENCES: Record<Lang, string[]> = {
  fr: [
    'Chez nous, on prend le temps de bien faire les choses.', 'Voici nos astuces préférées, testées à Québec.',
    'Il suffit de quelques ingrédients de qualité.', 'Nos artisans partagent leur savoir-faire.',
    'Bonne dégustation et à bientôt en boutique !', 'Les quantités sont limitées, faites vite.',
  ],
  en: [
    'We tested every tip in our own kitchen.', 'All you need is a few good ingredients.',
    'Our makers share their craft with you.', 'See you soon at the shop!', 'Quantities are limited.',
  ],
};

export const PAGES: Array<[string, Lang, boolean]> = [
  // [title, language, secured]
  ['Accueil', 'fr', false], ['À propos', 'fr', false], ['Nous joindre', 'fr', false], ['Livraison et retours', 'fr', false],
  ['Politique de confidentialité', 'fr', false], ['Conditions générales de vente', 'fr', false], ['FAQ', 'fr', false],
  ['Nos artisans', 'fr', false], ['Boutique de Trois-Rivières', 'fr', false], ['Mon compte', 'fr', true],
  ['Historique de commandes', 'fr', true], ['Espace grossistes', 'fr', true], ['Cartes-cadeaux', 'fr', false],
  ['Carrières', 'fr', false], ['Programme de fidélité', 'fr', true],
  ['About us', 'en', false], ['Contact us', 'en', false], ['Shipping & returns', 'en', false],
  ['Privacy policy', 'en', false], ['Wholesale portal', 'en', true], ['Store locator', 'en', false],
  ['Gift registry', 'en', true],
];

export const PAGE_PARAGRAPHS: Record<Lang, string[]> = {
  fr: [
    'La Maison Boréale est née à Montréal en 2019, d’une passion pour les objets durables et les saveurs d’ici.',
    'Nos boutiques de Québec et de Trois-Rivières vous accueillent du mardi au dimanche.',
    'Les commandes passées avant midi sont expédiées le jour même, partout au Canada.',
    'Vous disposez de 30 jours pour retourner un article non utilisé dans son emballage d’origine.',
    'Nous ne vendons jamais vos renseignements personnels. Ils servent uniquement au traitement de vos commandes.',
    'Pour toute question, écrivez-nous : nous répondons en français et en anglais.',
  ],
  en: [
    'La Maison Boréale was born in Montréal in 2019 out of a love for lasting goods and local flavours.',
    'Orders placed before noon ship the same day anywhere in Canada.',
    'You have 30 days to return an unused item in its original packaging.',
    'We never sell your personal information; it is only used to process your orders.',
    'Questions? Write to us in English or French.',
  ],
};

export const COUPONS: Array<[string, string, 'AMOUNT_ORDER' | 'FREE_SHIPPING']> = [
  ['BIENVENUE10', 'Bienvenue – 10 $ de rabais', 'AMOUNT_ORDER'],
  ['LIVRAISONGRATUITE', 'Livraison gratuite au Québec', 'FREE_SHIPPING'],
  ['NOEL25', 'Noël – 25 $ à l’achat de 150 $', 'AMOUNT_ORDER'],
  ['CABANE15', 'Cabane à sucre – 15 $', 'AMOUNT_ORDER'],
  ['FETEDESMERES', 'Fête des mères', 'AMOUNT_ORDER'],
  ['ETE2024', 'Été 2024', 'AMOUNT_ORDER'],
  ['RENTREE5', 'Rentrée – 5 $', 'AMOUNT_ORDER'],
  ['FREESHIP', 'Free shipping over $75', 'FREE_SHIPPING'],
  ['WELCOME10', 'Welcome – $10 off', 'AMOUNT_ORDER'],
  ['BLACKFRIDAY', 'Vendredi fou / Black Friday', 'AMOUNT_ORDER'],
  ['CYBERLUNDI', 'Cyberlundi', 'AMOUNT_ORDER'],
  ['MONTREAL375', 'Montréal 375', 'AMOUNT_ORDER'],
  ['QUEBEC2025', 'Québec 2025', 'AMOUNT_ORDER'],
  ['TROISRIVIERES', 'Boutique de Trois-Rivières', 'FREE_SHIPPING'],
  ['VIP50', 'Clients VIP – 50 $', 'AMOUNT_ORDER'],
  ['INFOLETTRE', 'Abonnés à l’infolettre', 'AMOUNT_ORDER'],
  ['FIDELITE20', 'Programme de fidélité', 'AMOUNT_ORDER'],
  ['SHIPFREE-US', 'Free shipping to the US', 'FREE_SHIPPING'],
  ['CHATEAU', 'Collection Château', 'AMOUNT_ORDER'],
  ['SOLDES30', 'Soldes d’hiver', 'AMOUNT_ORDER'],
  ['GRATUIT', 'Livraison offerte', 'FREE_SHIPPING'],
  ['MERCI', 'Merci !', 'AMOUNT_ORDER'],
];

export const FILE_SUBJECTS = [
  'théière-en-fonte', 'crème-brûlée', 'château-frontenac', 'bannière-accueil', 'logo', 'catalogue-automne',
  'sirop-érable', 'tasse-grès', 'montréal-vieux-port', 'québec-hiver', 'trois-rivières-boutique', 'cast-iron-skillet',
  'linen-towel', 'holiday-banner', 'lookbook', 'fiche-entretien', 'size-guide', 'promo-video', 'équipe', 'atelier',
];

/** [extension, weight, min bytes, max bytes] */
export const FILE_TYPES: Array<[string, number, number, number]> = [
  ['jpg', 50, 18_000, 3_500_000], ['png', 16, 2_000, 1_800_000], ['webp', 10, 9_000, 900_000],
  ['gif', 4, 1_200, 2_400_000], ['svg', 5, 600, 48_000], ['pdf', 10, 40_000, 8_000_000], ['mp4', 5, 2_000_000, 90_000_000],
];

export const STAFF_EMAIL_DOMAIN = STORE_HOST;
export const CUSTOMER_EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'courriel.example', 'mail.example'];
