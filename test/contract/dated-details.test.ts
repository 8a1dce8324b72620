/**
 * The details list_upcoming shows come from the model: a dated collection
 * shows those of the vocabulary it declares, so a model whose only dated
 * collection has no place, status or registration link promises none.
 */
import { describe, expect, it } from 'vitest'
import { parseSiteConfig } from '../../build/core/site.ts'
import { declaredDetails, detailDescription, detailOf, DATED_DETAILS } from '../../contract/model/dated-details.ts'
import { SITE_YAML } from '../helpers/project.ts'

const TRAININGS = `url: https://www.example.com
collections:
  trainings:
    label: training
    dated: true
    fields:
      starts_at: { type: datetime, required: true }
      timezone: { type: timezone, required: true }
      seats: integer
`

describe('the details of dated items', () => {
  it('are none for a model whose dated collection declares none', () => {
    expect(declaredDetails(parseSiteConfig(TRAININGS).model)).toEqual([])
  })

  it("are the seed's events' and webinars' fields, described as the model describes them", () => {
    const declared = declaredDetails(parseSiteConfig(SITE_YAML).model)
    expect(declared.map(({ detail }) => detail.key)).toEqual(DATED_DETAILS.map((d) => d.key))
    const region = declared.find(({ detail }) => detail.key === 'region')!
    expect(detailDescription(region)).toBe('Sales region, e.g. "EMEA", "North America".')
    const mode = declared.find(({ detail }) => detail.key === 'attendance_mode')!
    expect(detailDescription(mode)).toBe(
      'How to attend it: in person, online or both. One of in_person, online, hybrid.',
    )
  })

  it("read a record's value at its path, null where it has none", () => {
    const city = DATED_DETAILS.find((d) => d.key === 'city')!
    expect(detailOf({ location: { city: 'Zurich' } }, city)).toBe('Zurich')
    expect(detailOf({ location: null }, city)).toBeNull()
    expect(detailOf({}, city)).toBeNull()
  })
})
