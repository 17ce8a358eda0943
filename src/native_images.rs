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
                Part::Text(_) | Part::File(_) | Part::Compaction(_) => None,
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

/// A request limit that can decide how many images stay native, in the order a tie between
/// them is settled (both began to withhold an image with the same record).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Binding {
    Count,
    Data,
    Pixels,
}

/// Applies the per-request limits to the images that passed on their own: the native images
/// are the newest that satisfy every limit at once (count, data, and the pixel limit that
/// applies at that count), withheld in steps so that, as a record grows, the withheld set and
/// each withheld image's marker only ever grow.
///
/// Each limit is taken on its own, over every prefix of the images (the record as it was when
/// it had fewer): the newest `k` fit it when `k` is within the count limit, their data within
/// the data limit, or, beyond the many-images threshold, each of them within its pixel limit.
/// The `over` images that do not fit are rounded up to the limit's step ([`stepped`]), so that
/// each limit's withheld count only grows with the record, and the request withholds the
/// oldest of the largest count. An image's marker names the limit that withheld it first as
/// the record grew, which no later image can change. The step is the limit's: a fifth of the
/// count limit (20 for Anthropic's 100), of the many-images threshold (4 for Anthropic's 20),
/// and, for the data limit, a fifth of the count limit too, so that it does not depend on the
/// record (`limits.withholding_step` overrides all three).
fn withhold_for_request(
    verdicts: &mut [(Verdict<'_>, Option<(u32, u32)>)],
    provider: Provider,
    limits: &ImageLimits,
) {
    // Oldest first, the images still native, with their data size and whether they are over
    // the pixel limit that applies beyond the threshold.
    let candidates: Vec<(usize, usize, bool)> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(index, (verdict, size))| {
            let image = verdict.as_ref().ok()?;
            let large = match (limits.max_side_pixels_beyond, size) {
                (Some((_, pixels)), Some((width, height))) => *width > pixels || *height > pixels,
                (Some(_) | None, _) => false,
            };
            Some((index, image.data().len(), large))
        })
        .collect();
    let total = candidates.len();
    let step = |bound: usize| limits.withholding_step.unwrap_or(bound / 5).max(1);
    // For each limit, how many of the oldest it withholds with the first `j` images, j = 0..=total.
    let mut counts: Vec<(Binding, Vec<usize>)> = Vec::with_capacity(3);
    let count_step = step(limits.images_per_request);
    counts.push((
        Binding::Count,
        (0..=total)
            .map(|j| stepped(j.saturating_sub(limits.images_per_request), count_step))
            .collect(),
    ));
    // The data limit: the newest images whose data fits, a window that only moves forward.
    let mut data = Vec::with_capacity(total + 1);
    let (mut start, mut sum) = (0, 0usize);
    data.push(0);
    for (j, &(_, len, _)) in candidates.iter().enumerate() {
        sum += len;
        while sum > limits.base64_len_per_request && start <= j {
            sum -= candidates.get(start).map_or(0, |&(_, len, _)| len);
            start += 1;
        }
        data.push(stepped(start, count_step));
    }
    counts.push((Binding::Data, data));
    if let Some((threshold, _)) = limits.max_side_pixels_beyond {
        let pixel_step = step(threshold);
        let mut pixels = Vec::with_capacity(total + 1);
        let mut after_large = 0;
        pixels.push(0);
        for (j, &(_, _, large)) in candidates.iter().enumerate() {
            after_large = if large { 0 } else { after_large + 1 };
            let images = j + 1;
            let fit = images.min(threshold).max(after_large);
            pixels.push(stepped(images - fit, pixel_step));
        }
        counts.push((Binding::Pixels, pixels));
    }
    let withheld = counts
        .iter()
        .filter_map(|(_, count)| count.last().copied())
        .max()
        .unwrap_or(0)
        .min(total);
    // The oldest `withheld` images, each with the limit that withheld it first.
    for (position, &(index, _, _)) in candidates.iter().enumerate().take(withheld) {
        let first = counts
            .iter()
            .filter_map(|(binding, count)| {
                // Each count only grows with `j`: the first prefix that withholds this image.
                let at = count.partition_point(|&withheld| withheld <= position);
                (at < count.len()).then_some((at, *binding))
            })
            .min_by_key(|&(at, binding)| (at, binding as u8));
        let Some((_, binding)) = first else { continue };
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
        if let Some((verdict, _)) = verdicts.get_mut(index) {
            *verdict = Err(reason);
        }
    }
}

/// How many are withheld when `over` do not fit, in steps of `step`: none when all fit; the
/// first alone (a conversation just crossing a limit loses as little as it can); then whole
/// steps, `1 + step * ceil((over - 1) / step)`. It only grows with `over`, and changes once
/// per `step`: the one rule by which both images (docs/design.md#caching) and a budget's withholding move, so
/// that a growing record rewrites its body rarely.
pub(crate) fn stepped(over: usize, step: usize) -> usize {
    match over {
        0 => 0,
        over => 1 + (over - 1).div_ceil(step.max(1)) * step.max(1),
    }
}

/// The verdict on one image on its own, with its pixel size where its header gives one;
/// `lands` says whether the request has a message where the provider takes it, which is
/// judged last.
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
    // Judged on its own first, so that its marker does not change when a user message comes to
    // follow it: only an image the provider would take is withheld for where it is.
    if !lands {
        return (Err(rules.role_reason()), size);
    }
    (Ok(Image::new(media_type, image.data())), size)
}
