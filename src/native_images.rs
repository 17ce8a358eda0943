//! The choice of native images: which images of a request go natively, and why each other one
//! is withheld. Each image is judged on its own against the provider's formats and per-image
//! limits, then the request's limits keep the newest that fit, withheld in steps.

use crate::marker::Reason;
use crate::provider::Provider;
use crate::rules::{ImageLimits, Rules};
use crate::signature;
use crate::wire::{Image, Part, WireMessage};

/// An image as the provider will take it, or why it cannot.
pub(crate) type Verdict<'a> = Result<Image<'a>, Reason>;

/// The verdict on every image of the conversation, in order, and on the `extra` images that
/// follow it (a round's tool images, which land where the provider takes them): first each
/// image on its own, then the request's limits, which keep the newest images and withhold the
/// oldest.
pub(crate) fn image_verdicts<'a>(
    messages: &[WireMessage<'a>],
    landings: &[bool],
    rules: &Rules,
    limits: &ImageLimits,
    extra: &[Image<'a>],
) -> (Vec<Verdict<'a>>, Vec<Verdict<'a>>) {
    let mut verdicts: Vec<(Verdict<'a>, Option<(u32, u32)>)> = messages
        .iter()
        .zip(landings)
        .flat_map(|(message, &lands)| {
            message.content.iter().filter_map(move |part| match part {
                Part::Image(image) => Some(verdict(image, lands, rules, limits)),
                Part::Text(_) => None,
            })
        })
        .chain(
            extra
                .iter()
                .map(|image| verdict(image, true, rules, limits)),
        )
        .collect();
    withhold_for_request(&mut verdicts, rules.provider, limits);
    let mut verdicts: Vec<Verdict<'a>> = verdicts.into_iter().map(|(verdict, _)| verdict).collect();
    let extra = verdicts.split_off(verdicts.len() - extra.len());
    (verdicts, extra)
}

/// Which request limit decides how many images stay native.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Binding {
    Count,
    Pixels,
    Data,
}

/// Applies the per-request limits to the images that passed on their own: the native images
/// are the newest that satisfy every limit at once (count, data, and the pixel limit that
/// applies at that count), withheld in steps so that the set of withheld images changes
/// rarely as a record grows.
///
/// The newest `k` images fit when `k` is within the count limit, their data within the data
/// limit, and, beyond the many-images threshold, every one of them within its pixel limit.
/// Each condition only gets harder as `k` grows, so the largest `k` that fits is found by
/// walking from the newest image back. The `w` images that do not fit are then rounded up:
/// the first is withheld alone (a conversation just crossing a limit loses one image), and
/// after it they go in whole steps, `1 + step * ceil((w - 1) / step)`, so the withheld set
/// only grows with the record and changes once per `step` new images.
fn withhold_for_request(
    verdicts: &mut [(Verdict<'_>, Option<(u32, u32)>)],
    provider: Provider,
    limits: &ImageLimits,
) {
    // Newest first, the images still native, with their data size and pixel size.
    let candidates: Vec<usize> = (0..verdicts.len())
        .rev()
        .filter(|&index| matches!(verdicts.get(index), Some((Ok(_), _))))
        .collect();
    let total = candidates.len();
    let (mut fit, mut data, mut binding) = (0, 0usize, None);
    let mut large_seen = false;
    for &index in &candidates {
        let Some((Ok(image), size)) = verdicts.get(index) else {
            continue;
        };
        let large = match (limits.max_side_pixels_beyond, size) {
            (Some((_, pixels)), Some((width, height))) => *width > pixels || *height > pixels,
            (Some(_) | None, _) => false,
        };
        let next = fit + 1;
        let beyond_threshold = limits
            .max_side_pixels_beyond
            .is_some_and(|(images, _)| next > images);
        if next > limits.images_per_request {
            binding = Some(Binding::Count);
        } else if data + image.data().len() > limits.base64_len_per_request {
            binding = Some(Binding::Data);
        } else if beyond_threshold && (large || large_seen) {
            binding = Some(Binding::Pixels);
        }
        if binding.is_some() {
            break;
        }
        large_seen |= large;
        fit = next;
        data += image.data().len();
    }
    let Some(binding) = binding else { return };
    let step = limits.withholding_step.unwrap_or_else(|| {
        let bound = match binding {
            Binding::Count => limits.images_per_request,
            Binding::Pixels => limits
                .max_side_pixels_beyond
                .map_or(limits.images_per_request, |(images, _)| images),
            Binding::Data => fit,
        };
        bound / 5
    });
    let step = step.max(1);
    let over = total - fit;
    let withheld = (1 + (over - 1).div_ceil(step) * step).min(total);
    let reason = match binding {
        Binding::Count => Reason::TooManyImages {
            provider,
            limit: limits.images_per_request,
        },
        Binding::Data => Reason::RequestTooLarge {
            provider,
            limit: limits.base64_len_per_request,
        },
        Binding::Pixels => {
            let (images, pixels) = limits.max_side_pixels_beyond.unwrap_or((0, 0));
            Reason::ManyImages {
                provider,
                images,
                pixels,
            }
        }
    };
    // The oldest `withheld` candidates: the end of the newest-first list.
    for &index in candidates.iter().skip(total - withheld) {
        if let Some((verdict, _)) = verdicts.get_mut(index) {
            *verdict = Err(reason);
        }
    }
}

/// The verdict on one image on its own, with its pixel size where its header gives one;
/// `lands` says whether the request has a message where the provider takes it.
///
/// The media type sent is the one the bytes have, as the provider spells it; bytes that are
/// no image the provider can read become a marker.
fn verdict<'a>(
    image: &Image<'a>,
    lands: bool,
    rules: &Rules,
    limits: &ImageLimits,
) -> (Verdict<'a>, Option<(u32, u32)>) {
    let provider = rules.provider;
    let accepted = |media_type: &str| {
        rules
            .media_types
            .iter()
            .copied()
            .find(|accepted| accepted.eq_ignore_ascii_case(media_type))
    };
    if !lands {
        return (Err(rules.role_reason()), None);
    }
    let Some(signature) = signature::read(image.data()) else {
        let reason = match accepted(image.media_type()) {
            None => Reason::MediaType {
                provider,
                actual: None,
            },
            Some(_) => Reason::UnrecognizedData,
        };
        return (Err(reason), None);
    };
    let size = signature.size;
    let format = signature.format;
    let Some(media_type) = accepted(format.media_type()) else {
        let actual =
            (!format.media_type().eq_ignore_ascii_case(image.media_type())).then_some(format);
        return (Err(Reason::MediaType { provider, actual }), size);
    };
    if signature.animated && rules.refuses_animated_gifs {
        return (Err(Reason::AnimatedGif(provider)), size);
    }
    if image.data().len() > limits.base64_len_per_image {
        let limit = limits.base64_len_per_image;
        return (Err(Reason::TooLarge { provider, limit }), size);
    }
    if let (Some(limit), Some((width, height))) = (limits.max_side_pixels, size) {
        if width > limit || height > limit {
            return (
                Err(Reason::TooManyPixels {
                    provider,
                    width,
                    height,
                    limit,
                }),
                size,
            );
        }
    }
    (Ok(Image::new(media_type, image.data())), size)
}
