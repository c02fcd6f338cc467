"""Prose for the converter's hand-written test pages: paragraphs long enough to read as content."""

FERRY = [
    "The ferry to the island runs twice a day in winter, at eight in the morning and at four "
    "in the afternoon, and the crossing takes a little under an hour in calm weather.",
    "In summer a third boat leaves at noon, and bicycles travel free on every crossing as "
    "long as they are loaded before the cars, through the side gate by the ticket office.",
    "Tickets are sold at the harbour and on board; a return costs the same as two singles, "
    "and children under twelve travel with their parents at no charge at all.",
    "The harbour café opens an hour before the first boat and closes after the last one "
    "comes in, and it sells the only hot food on that side of the bay in the winter months.",
]
