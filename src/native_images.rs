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
    let extra = verdicts.split_off(verdicts.len().saturating_sub(extra.len()));
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
/// The withholding each limit requires moves in steps ([`in_steps`]), so that each limit's
/// withheld count only grows with the record, and the request withholds the oldest of the
/// largest count. An image's marker names the limit that withheld it first as the record
/// grew, which no later image can change.
///
/// The step is a fifth of what the limit lets through, at least 1: of the count limit (20 for
/// Anthropic's 100), of the many-images threshold (4 for Anthropic's 20), and, for the data
/// limit, of the images whose data fits (`limits.withholding_step` sets all three). A step
/// never exceeds the images that fit the limit, so a step never withholds the newest image
/// that fits alone, and under a default step at least four fifths of the newest that fit stay
/// native.
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
    let step = |default: usize| limits.withholding_step.unwrap_or(default);
    // For each limit, how many of the oldest it withholds with the first `j` images, j = 0..=total.
    let mut counts: Vec<(Binding, Vec<usize>)> = Vec::with_capacity(3);
    let count_step = step(limits.images_per_request / 5);
    let least: Vec<usize> = (0..=total)
        .map(|j| j.saturating_sub(limits.images_per_request))
        .collect();
    counts.push((Binding::Count, in_steps(&least, |_| count_step)));
    // The data limit: the newest images whose data fits, a window that only moves forward.
    let mut least = Vec::with_capacity(total + 1);
    let (mut start, mut sum) = (0, 0usize);
    least.push(0);
    for (j, &(_, len, _)) in candidates.iter().enumerate() {
        sum = sum.saturating_add(len);
        while sum > limits.base64_len_per_request && start <= j {
            sum = sum.saturating_sub(candidates.get(start).map_or(0, |&(_, len, _)| len));
            start += 1;
        }
        least.push(start);
    }
    let data_step = |fit: usize| limits.withholding_step.unwrap_or(fit / 5);
    counts.push((Binding::Data, in_steps(&least, data_step)));
    if let Some((threshold, _)) = limits.max_side_pixels_beyond {
        let pixel_step = step(threshold / 5);
        let mut least = Vec::with_capacity(total + 1);
        let mut after_large = 0usize;
        least.push(0);
        for (j, &(_, _, large)) in candidates.iter().enumerate() {
            after_large = if large {
                0
            } else {
                after_large.saturating_add(1)
            };
            let images = j + 1;
            let fit = images.min(threshold).max(after_large);
            least.push(images.saturating_sub(fit));
        }
        counts.push((Binding::Pixels, in_steps(&least, |_| pixel_step)));
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

/// For each prefix `j` of the images (the record as it grew), how many of the oldest a limit
/// withholds, given the `least` it requires at each: it stays while what it withheld is enough,
/// and when it must move it moves in whole steps (`step` of the images that fit, bounded to
/// 1 ..= what fits) from where it stood ([`advance`]). It only grows with `j`, changes once per
/// step, and never withholds the newest image that fits alone.
fn in_steps(least: &[usize], step: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut withheld = Vec::with_capacity(least.len());
    let mut before = 0;
    for (j, &least) in least.iter().enumerate() {
        let fit = j.saturating_sub(least);
        let step = step(fit).clamp(1, fit.max(1));
        before = advance(before, least, step);
        withheld.push(before);
    }
    withheld
}

/// How many a limit withholds once its withholding must move: `before` were withheld, the
/// limit requires `least`. It stays while `before` is enough; the first items over a limit
/// go alone (a conversation just crossing a limit loses as little as it can), and after that
/// in whole steps from where it stood. With a fixed step it is [`stepped`]`(least, step)`;
/// it withholds fewer than `least + step` always.
fn advance(before: usize, least: usize, step: usize) -> usize {
    let step = step.max(1);
    match before {
        before if before >= least => before,
        0 => stepped(least, step),
        before => {
            let steps = (least - before).div_ceil(step);
            before.saturating_add(steps.saturating_mul(step))
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
        over => (over - 1)
            .div_ceil(step.max(1))
            .saturating_mul(step.max(1))
            .saturating_add(1),
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
