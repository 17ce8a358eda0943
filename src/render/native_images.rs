//! The choice of native media: which images and files of a request go natively, and why each
//! other one is withheld. Each image and file is judged on its own against the provider's
//! formats and per-item limits, then the request's limits keep the newest that fit, withheld
//! in steps: one budget for images and files together where the provider's limit is the whole
//! request's.

use crate::media::file::File;
use crate::media::marker::Reason;
use crate::media::signature;
use crate::provider::Provider;
use crate::render::rules::{ImageLimits, Rules, TurnRole};
use crate::wire::{Image, Part, WireMessage};

/// An image as the provider will take it, or why it cannot.
pub(crate) type Verdict<'a> = Result<Image<'a>, Reason>;

/// Whether a file goes natively, or why it cannot.
pub(crate) type FileVerdict = Result<(), Reason>;

/// The verdicts on every image and file of a request, each list in the order of the request.
#[derive(Debug)]
pub(crate) struct Verdicts<'a> {
    /// One per image of the messages.
    pub(crate) images: Vec<Verdict<'a>>,
    /// One per extra image, after the messages (a round's tool images).
    pub(crate) extra_images: Vec<Verdict<'a>>,
    /// One per file of the messages.
    pub(crate) files: Vec<FileVerdict>,
    /// One per extra file, after the extra images (a round's tool files).
    pub(crate) extra_files: Vec<FileVerdict>,
}

/// Where one message's images and files can go natively: whether its images land somewhere
/// the provider takes them, and the role its files are judged in (the user's, for an assistant
/// turn's files carried to the next user message).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Landing {
    pub(crate) images: bool,
    pub(crate) files_as: TurnRole,
}

/// The verdict on every image and file of the conversation, in order, and on the extra images
/// and files that follow it (a round's, which land where the provider takes them, on the
/// user's side): first each on its own, then the request's limits, which keep the newest and
/// withhold the oldest.
///
/// `landings` says, for each message, whether its images land somewhere the provider takes
/// them, and the role its files are judged in.
pub(crate) fn media_verdicts<'a>(
    messages: &[WireMessage<'a>],
    landings: &[Landing],
    rules: &Rules,
    limits: &ImageLimits,
    (extra_images, extra_files): (&[Image<'a>], &[File<'a>]),
) -> Verdicts<'a> {
    let mut images: Vec<(Verdict<'a>, Option<(u32, u32)>)> = Vec::new();
    let mut files: Vec<(FileVerdict, File<'a>)> = Vec::new();
    // Every item of the request in order, as its kind and its index in the list of its kind.
    let mut order: Vec<(Kind, usize)> = Vec::new();
    for (message, landing) in messages.iter().zip(landings) {
        for part in &message.content {
            match part {
                Part::Image(image) => {
                    order.push((Kind::Image, images.len()));
                    images.push(verdict(image, landing.images, rules, limits));
                }
                Part::File(file) => {
                    order.push((Kind::File, files.len()));
                    files.push((file_verdict(file, landing.files_as, rules), *file));
                }
                Part::Text(_) | Part::Compaction(_) => {}
            }
        }
    }
    let message_images = images.len();
    let message_files = files.len();
    for image in extra_images {
        order.push((Kind::Image, images.len()));
        images.push(verdict(image, true, rules, limits));
    }
    for file in extra_files {
        order.push((Kind::File, files.len()));
        files.push((file_verdict(file, TurnRole::User, rules), *file));
    }
    // The items that passed on their own, in order, as the request's limits count them.
    let candidates: Vec<Candidate> = order
        .iter()
        .filter_map(|&(kind, index)| match kind {
            Kind::Image => {
                let (verdict, size) = images.get(index)?;
                let image = verdict.as_ref().ok()?;
                let large = match (limits.max_side_pixels_beyond, size) {
                    (Some((_, pixels)), Some((width, height))) => {
                        *width > pixels || *height > pixels
                    }
                    (Some(_) | None, _) => false,
                };
                Some(Candidate {
                    kind,
                    index,
                    len: image.data().len(),
                    large,
                    pages: 0,
                })
            }
            Kind::File => {
                let (verdict, file) = files.get(index)?;
                verdict.as_ref().ok()?;
                let pages = match rules.files.pages_per_request {
                    Some(_)
                        if crate::media::file::lowercase(file.media_type())
                            == "application/pdf" =>
                    {
                        crate::media::file::pdf_pages_of(file.data())
                    }
                    Some(_) | None => 0,
                };
                Some(Candidate {
                    kind,
                    index,
                    len: file.data().len(),
                    large: false,
                    pages,
                })
            }
        })
        .collect();
    for (candidate, reason) in
        candidates
            .iter()
            .zip(withhold_for_request(&candidates, rules, limits))
    {
        let Some(reason) = reason else { continue };
        match candidate.kind {
            Kind::Image => {
                if let Some((verdict, _)) = images.get_mut(candidate.index) {
                    *verdict = Err(reason);
                }
            }
            Kind::File => {
                if let Some((verdict, _)) = files.get_mut(candidate.index) {
                    *verdict = Err(reason);
                }
            }
        }
    }
    let mut images: Vec<Verdict<'a>> = images.into_iter().map(|(verdict, _)| verdict).collect();
    let extra_images = images.split_off(message_images.min(images.len()));
    let mut files: Vec<FileVerdict> = files.into_iter().map(|(verdict, _)| verdict).collect();
    let extra_files = files.split_off(message_files.min(files.len()));
    Verdicts {
        images,
        extra_images,
        files,
        extra_files,
    }
}

/// Whether an item of the request is an image or a file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Image,
    File,
}

/// An image or file that passed on its own, as the request's limits count it.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    kind: Kind,
    /// Its index in the list of its kind.
    index: usize,
    /// Its data, as base64 text.
    len: usize,
    /// Whether it is an image over the pixel limit that applies beyond many images.
    large: bool,
    /// Its PDF pages, where the provider limits a request's pages (0 for any other file).
    pages: usize,
}

/// A request limit, in the order a tie between them is settled (two began to withhold an
/// item with the same record).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Binding {
    /// The images' count.
    Count,
    /// The data of the images, or of the images and files together where the provider's
    /// limit is the whole request's.
    Data,
    /// The pixel limit that applies beyond many images.
    Pixels,
    /// The files' own data.
    FileData,
    /// The PDF pages.
    Pages,
    /// The files' count.
    FileCount,
}

/// What a limit counts and keeps within its bound.
#[derive(Clone, Copy, Debug)]
enum Measure {
    /// How many items.
    Count,
    /// Their base64 text.
    Data,
    /// Their PDF pages.
    Pages,
    /// How many items, none of them over the pixel limit once there are more than `images`.
    Pixels { images: usize },
}

/// How far a limit's withholding moves at a time, before it is bounded by what fits.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A fixed number of items.
    Fixed(usize),
    /// A fifth of the items the limit lets through.
    FifthOfFit,
}

/// One request limit over the record as it grew: for each prefix of the candidates (the record
/// as it was when it had fewer), how many of the oldest items of its kinds it withholds.
#[derive(Debug)]
struct Tally {
    binding: Binding,
    /// Which kinds it counts: images, files, or both (`None`).
    kind: Option<Kind>,
    measure: Measure,
    bound: usize,
    step: Step,
    /// What each item of its kinds so far weighs, oldest first.
    weights: Vec<usize>,
    /// How many of the oldest of them the limit alone requires to be withheld, and the weight
    /// of the rest.
    start: usize,
    sum: usize,
    /// The items since the last one over the pixel limit.
    after_large: usize,
    /// For each prefix, how many of the oldest items of its kinds it withholds.
    withheld: Vec<usize>,
}

impl Tally {
    fn new(
        binding: Binding,
        kind: Option<Kind>,
        measure: Measure,
        bound: usize,
        step: Step,
    ) -> Self {
        Tally {
            binding,
            kind,
            measure,
            bound,
            step,
            weights: Vec::new(),
            start: 0,
            sum: 0,
            after_large: 0,
            withheld: vec![0],
        }
    }

    fn counts(&self, kind: Kind) -> bool {
        match self.kind {
            Some(counted) => counted == kind,
            None => true,
        }
    }

    /// Adds the next candidate of the record as it grew.
    fn push(&mut self, candidate: &Candidate) {
        let before = self.withheld.last().copied().unwrap_or(0);
        if !self.counts(candidate.kind) {
            self.withheld.push(before);
            return;
        }
        let weight = match self.measure {
            Measure::Count | Measure::Pixels { .. } => 1,
            Measure::Data => candidate.len,
            Measure::Pages => candidate.pages,
        };
        self.weights.push(weight);
        let seen = self.weights.len();
        // How many of the oldest the limit alone requires to be withheld.
        let least = match self.measure {
            Measure::Count => seen.saturating_sub(self.bound),
            Measure::Pixels { images } => {
                self.after_large = match candidate.large {
                    true => 0,
                    false => self.after_large.saturating_add(1),
                };
                seen.saturating_sub(seen.min(images).max(self.after_large))
            }
            Measure::Data | Measure::Pages => {
                // The newest whose weight fits: a window that only moves forward.
                self.sum = self.sum.saturating_add(weight);
                while self.sum > self.bound && self.start < seen {
                    let oldest = self.weights.get(self.start).copied().unwrap_or(0);
                    self.sum = self.sum.saturating_sub(oldest);
                    self.start += 1;
                }
                self.start
            }
        };
        let fit = seen.saturating_sub(least);
        let step = match self.step {
            Step::Fixed(step) => step,
            Step::FifthOfFit => fit / 5,
        };
        // Never a step past what fits: the newest that fit alone stay native.
        let step = step.clamp(1, fit.max(1));
        self.withheld.push(advance(before, least, step));
    }

    /// The reason it gives an item it withholds; `mixed` says whether the record, when the
    /// limit first withheld it, had both images and files.
    fn reason(&self, provider: Provider, limits: &ImageLimits, mixed: bool) -> Reason {
        match self.binding {
            Binding::Count | Binding::FileCount => Reason::TooManyImages {
                provider,
                limit: self.bound,
            },
            // One budget for both kinds, and both in the request: the marker says so.
            Binding::Data if self.kind.is_none() && mixed => Reason::MediaTooLarge {
                provider,
                limit: self.bound,
            },
            Binding::Data | Binding::FileData => Reason::RequestTooLarge {
                provider,
                limit: self.bound,
            },
            Binding::Pixels => {
                let (images, pixels) = limits.max_side_pixels_beyond.unwrap_or((0, 0));
                Reason::ManyImages {
                    provider,
                    images,
                    pixels,
                }
            }
            Binding::Pages => Reason::TooManyPages {
                provider,
                limit: self.bound,
            },
        }
    }
}

/// Applies the per-request limits to the items that passed on their own (`candidates`, in the
/// request's order): the native images and files are the newest of each kind that satisfy
/// every limit at once, withheld in steps so that, as a record grows, the withheld set and
/// each withheld item's marker only ever grow. Returns, for each candidate, why it is
/// withheld, or `None`.
///
/// Each limit is taken on its own, over every prefix of the candidates (the record as it was
/// when it had fewer), and counts the items of its kinds: the images' count and the pixel
/// limit beyond many images count images; the files' count, data and PDF pages count files;
/// the data limit counts images, and files too where the provider's limit is the whole
/// request's ([`FileRules::data_with_images`](crate::render::rules::FileRules::data_with_images)):
/// one budget, newest first. The newest `k` items of its kinds fit a limit when their count,
/// data or pages are within it or, beyond the many-images threshold, each of them is within
/// its pixel limit. The withholding a limit requires moves in steps ([`advance`]) so that
/// each limit's withheld count only grows with the record, and the request withholds, of each
/// kind, the oldest of the largest count. An item's marker names the limit that withheld it
/// first as the record grew, which no later item can change.
///
/// The step is a fifth of what the limit lets through, at least 1: of the count limit (20 for
/// Anthropic's 100), of the many-images threshold (4 for Anthropic's 20), and, for the data
/// limit, of the items whose data fits; `limits.withholding_step` sets it for these three.
/// A files' count moves in a fifth of its limit, and their own data and pages by what they
/// require. A step never exceeds the items that fit the limit, so a step never withholds the
/// newest item that fits alone, and under a default step at least four fifths of the newest
/// that fit stay native.
fn withhold_for_request(
    candidates: &[Candidate],
    rules: &Rules,
    limits: &ImageLimits,
) -> Vec<Option<Reason>> {
    let provider = rules.provider;
    let step = |default: Step| limits.withholding_step.map_or(default, Step::Fixed);
    let data_kinds = match rules.files.data_with_images {
        true => None,
        false => Some(Kind::Image),
    };
    let mut tallies = vec![
        Tally::new(
            Binding::Count,
            Some(Kind::Image),
            Measure::Count,
            limits.images_per_request,
            step(Step::Fixed(limits.images_per_request / 5)),
        ),
        Tally::new(
            Binding::Data,
            data_kinds,
            Measure::Data,
            limits.base64_len_per_request,
            step(Step::FifthOfFit),
        ),
    ];
    if let Some((images, _)) = limits.max_side_pixels_beyond {
        tallies.push(Tally::new(
            Binding::Pixels,
            Some(Kind::Image),
            Measure::Pixels { images },
            images,
            step(Step::Fixed(images / 5)),
        ));
    }
    if let Some(bound) = rules.files.bytes_per_request {
        tallies.push(Tally::new(
            Binding::FileData,
            Some(Kind::File),
            Measure::Data,
            bound,
            Step::Fixed(1),
        ));
    }
    if let Some(bound) = rules.files.pages_per_request {
        tallies.push(Tally::new(
            Binding::Pages,
            Some(Kind::File),
            Measure::Pages,
            bound,
            Step::Fixed(1),
        ));
    }
    if let Some(bound) = rules.files.per_request {
        let step = Step::Fixed(bound / 5);
        tallies.push(Tally::new(
            Binding::FileCount,
            Some(Kind::File),
            Measure::Count,
            bound,
            step,
        ));
    }
    for candidate in candidates {
        for tally in &mut tallies {
            tally.push(candidate);
        }
    }
    // For each prefix of the record, whether it has both images and files.
    let mut kinds = (false, false);
    let mut mixed = vec![false];
    for candidate in candidates {
        match candidate.kind {
            Kind::Image => kinds.0 = true,
            Kind::File => kinds.1 = true,
        }
        mixed.push(kinds.0 && kinds.1);
    }
    // Each candidate's place among the items of each tally's kinds, and the first prefix of
    // the record that withholds it, with the limit that does.
    let (mut images, mut files) = (0usize, 0usize);
    candidates
        .iter()
        .enumerate()
        .map(|(position, candidate)| {
            let own = match candidate.kind {
                Kind::Image => &mut images,
                Kind::File => &mut files,
            };
            let rank_of_kind = *own;
            *own += 1;
            tallies
                .iter()
                .filter(|tally| tally.counts(candidate.kind))
                .filter_map(|tally| {
                    let rank = match tally.kind {
                        Some(_) => rank_of_kind,
                        None => position,
                    };
                    // Each count only grows with the prefix: the first that withholds it.
                    let at = tally.withheld.partition_point(|&withheld| withheld <= rank);
                    (at < tally.withheld.len()).then_some((at, tally.binding as u8, tally))
                })
                .min_by_key(|&(at, binding, _)| (at, binding))
                .map(|(at, _, tally)| {
                    let mixed = mixed.get(at).copied().unwrap_or(false);
                    tally.reason(provider, limits, mixed)
                })
        })
        .collect()
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

/// The verdict on one file on its own, in a message of `role`: the provider's
/// [`FileRules`](crate::render::rules::FileRules). A system message's files are never native: no
/// provider takes them in its system text, and a later system message is a user turn labelled
/// as system.
fn file_verdict(file: &File<'_>, role: TurnRole, rules: &Rules) -> FileVerdict {
    match rules
        .files
        .refuses(rules.provider, role, file.media_type(), file.data())
    {
        Some(reason) => Err(reason),
        None => Ok(()),
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
