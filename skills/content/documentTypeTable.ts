/**
 * The document types a Writer task can build (read and validated by documentTypes.ts): heading
 * patterns around the subject's title, and opening and closing paragraphs in that type's own form.
 * {ours} is the organisation the document comes from; {org} another one (a partner, the buyer of a
 * tender), as in the content kits. Data in a module, not YAML: skills/ YAML files are skill specs.
 */
export const DOCUMENT_TYPE_TABLE: unknown = {
  types: {
    'press release': {
      title: ['{title}', 'News release: {title}', 'Press release - {title}'],
      opening: [
        '{place}, {date}. {ours} today set out the details of the work described below, which has been several months in preparation.',
        '{date}, {place}. Announced today by {ours}, the plans below follow a period of consultation with the people most closely involved.',
        'FOR IMMEDIATE RELEASE. {place}, {date}. {ours} has published the following statement and welcomes questions from local and trade press.',
        '{place}, {date}. In a statement issued this morning, {person} of {ours} confirmed the arrangements outlined in this release.',
      ],
      closing: [
        'Ends. For press enquiries, please contact {person} in the communications team at {ours}.',
        'Ends. Interviews and photographs are available on request from {person}, press officer at {ours}.',
        'Ends. Notes to editors: {ours} is based in {place}, and media enquiries should go to {person}.',
        'Ends. Further comment is available from {person}; requests received after {date} will be handled by {person2}.',
      ],
    },
    flyer: {
      title: ['Come along: {title}', '{title} - all welcome', 'Open session: {title}'],
      opening: [
        'Join us on {date} at the community rooms in {place} for an informal session open to everyone with an interest.',
        'Whether you are new to this or already know the ropes, there is a place for you at our drop-in in {place} on {date}.',
        'Free to attend and open to all: {ours} is hosting a short session on {date}, starting at 10am and finishing by noon.',
        'Bring a colleague or a friend. {person} will be running the session at the {place} office, with tea and coffee from 9.30am.',
      ],
      closing: [
        'Places are limited, so please book by {date} by emailing {person} or calling the front desk.',
        'To reserve a place, reply to {person} or sign up at reception. Entry is free and step-free access is available.',
        'Booking is essential. Ring {ours} on 01632 960412 or drop in to the {place} office to put your name down.',
        'Tickets cost {amount} and include refreshments. Questions about access or parking can go to {person}.',
      ],
    },
    invitation: {
      title: ['Invitation: {title}', 'You are invited: {title}'],
      opening: [
        '{ours} would be delighted if you could join us in {place} on {date} for an afternoon given over to the topic below.',
        'On behalf of {ours}, {person} warmly invites you to a reception on {date}, beginning at 6pm with drinks and a short welcome.',
        'We are pleased to invite you to a morning event at our {place} premises, where colleagues will share progress and answer questions.',
        'You are cordially invited to attend on {date}. The event will be hosted by {person} and is expected to last around two hours.',
      ],
      closing: [
        'Please let {person} know by {date} whether you are able to attend, and tell us about any dietary or access needs.',
        'RSVP to {person} at {ours}. Parking is available on site, and the venue in {place} is a short walk from the station.',
        'We hope you can join us. Kindly confirm your place by {date} so that we can finalise numbers with the venue.',
        'Replies are requested by return email. If you cannot attend, {person2} would be glad to send you a summary afterwards.',
      ],
    },
    notice: {
      title: ['Notice: {title}', '{title} - important notice', 'Please note: {title}'],
      opening: [
        'This notice is to inform everyone at {ours} of the arrangements below, which apply from {date} until further notice.',
        'Please read the following carefully. It sets out a change that affects everyone working at the {place} site.',
        'With effect from {date}, the arrangements described here replace any earlier guidance on the same matter.',
        'Issued by {person} on behalf of {ours}. The information below should be shared with anyone who is not on the usual circulation list.',
      ],
      closing: [
        'Questions about this notice should be directed to {person}. A copy will remain on the staff noticeboard until {date}.',
        'Thank you for your cooperation. Please keep this notice displayed in a visible place until {person} formally withdraws it.',
        'If you believe this notice affects you in a way not covered here, speak to your line manager or contact {person} directly.',
        'This notice was approved by {person} and will be reviewed on {date}. Any updates will be circulated in the same way.',
      ],
    },
    'thank-you letter': {
      title: ['With thanks: {title}', 'Thank you - {title}'],
      opening: [
        'Dear {person}, I am writing on behalf of everyone at {ours} to thank you for your help with the work described below.',
        'Dear colleagues, I wanted to take a moment to say thank you properly for the time and care you have given {ours} over recent months.',
        'Dear {person}, thank you for everything you did in the run-up to {date}. It made a real difference and did not go unnoticed.',
        'Dear friends of {ours}, your support this year has been generous and steady, and we would like to tell you what it has made possible.',
      ],
      closing: [
        'With my sincere thanks once again, and best wishes for the months ahead. Yours sincerely, {person}.',
        'Thank you again for all your help. Kind regards, {person}, on behalf of everyone at {ours}.',
        'We are very grateful and hope to work with you again soon. With warm regards, {person} and the team in {place}.',
        'Please pass our thanks to anyone else who lent a hand along the way. With gratitude, {person}, {ours}.',
      ],
    },
    newsletter: {
      title: ['Newsletter: {title}', 'In this issue: {title}', '{title} - latest news'],
      opening: [
        'Welcome to the {date} edition of the {ours} newsletter. This issue leads with the story below and rounds up news from across the organisation.',
        'Hello and welcome to the latest newsletter from {ours}. There is plenty to catch up on, so we have kept each item short.',
        'In this issue we look at one piece of work in detail, with a few words from {person}, who has been closely involved.',
        'Welcome back. As ever, this newsletter is put together by volunteers at {ours}, and we are always glad to hear your ideas for future issues.',
      ],
      closing: [
        'That is all for this edition. The next newsletter goes out on {date}; send contributions to {person} before then.',
        'Thank you for reading. If you would rather not receive this newsletter, reply to {person} and we will remove you from the list.',
        'Have a story for the next issue? Get in touch with {person} at {ours}. We especially welcome photographs and short pieces.',
        'Until next time, from all of us in {place}. Back issues are available on request from the office.',
      ],
    },
    'staff newsletter': {
      title: ['Staff news: {title}', '{title} - staff newsletter'],
      opening: [
        'Welcome to this month’s staff newsletter, where we share what colleagues across {ours} have been working on.',
        'Hello everyone. This edition of staff news leads with the item below, followed by a few notices from the people team and facilities in {place}.',
        'A short staff bulletin this time, as many of you are on leave. {person} has kindly written up the main item.',
        'Staff news for {date}. Thanks to everyone who sent in updates; we could not fit them all, so more will follow next time.',
      ],
      closing: [
        'Please send news, milestones and welcome messages for new starters to {person} by {date} for the next edition.',
        'As always, thank you for everything you do. The next staff newsletter will land in inboxes on {date}.',
        'Anything you would like to see covered? The internal communications team at {ours} reads every suggestion.',
        'Printed copies are available in the {place} staff room. Feedback on the new layout is welcome and can go to {person}.',
      ],
    },
    'team update': {
      title: ['Team update: {title}', '{title} - weekly update', 'Update: {title}'],
      opening: [
        'Hi all, here is this week’s update from {person}. The main item is set out below, with a couple of housekeeping points at the end.',
        'Quick update from {person} for the whole team. Nothing urgent, but please read before our catch-up on {date}.',
        'Hello team. Following last week’s stand-up in {place}, I said I would write up where things have got to, so here it is.',
        'This update covers progress since our last check-in and what is coming up before {date}. Shout if anything is unclear.',
      ],
      closing: [
        'That is it for now. Any blockers, flag them in the team channel or grab {person} for ten minutes.',
        'Next update will follow after {date}. In the meantime, keep the shared tracker up to date so we all have the same picture.',
        'Thanks all for the steady work this week. {person} is covering while I am away, so send questions their way.',
        'Please reply with any corrections by end of day. We will pick up open points at the next team meeting in {place}.',
      ],
    },
    'club bulletin': {
      title: ['Club bulletin: {title}', '{title} - members’ bulletin'],
      opening: [
        'Dear members, welcome to the latest bulletin of {ours}. Your committee has been busy, and there is one item we particularly want to share.',
        'Greetings to all members and friends of {ours}. This bulletin brings you the news below along with a reminder about subscriptions.',
        'Hello members. The committee met on {date} and agreed to share the following with everyone before the next club night.',
        'Welcome to the bulletin, compiled as ever by {person} with help from the committee. Members’ contributions are always welcome.',
      ],
      closing: [
        'Subscriptions of {amount} are due by {date}. Please pay the treasurer, {person}, at the next club night or by bank transfer.',
        'See you at the clubhouse in {place}. If you have news for the next bulletin, pass it to the secretary.',
        'With best wishes from the committee. Any member wishing to raise a matter at the AGM should write to {person} in advance.',
        'New members are always welcome, so please bring a friend along. Contact {person} for a membership form.',
      ],
    },
    memo: {
      title: ['Memo: {title}', 'Memorandum - {title}', 'Internal memo: {title}'],
      opening: [
        'This note is for all staff in the {place} office. It is from {person} and sets out a matter that needs your attention this month.',
        'To: all team leaders, from {person}, dated {date}. This memo confirms the approach agreed at the last management meeting.',
        'To all colleagues at {ours}, from the operations lead. Please read the points below and share them with anyone who is currently away.',
        'Internal circulation only. {person} has asked me to write to everyone concerned about the item below ahead of {date}.',
      ],
      closing: [
        'Please confirm you have read this memo by replying to {person} no later than {date}.',
        'If you have any concerns about what is set out here, raise them with your line manager in the first instance, or with {person}.',
        'No further action is needed unless you are directly affected. Thank you for reading, {person}.',
        'This memo will be filed with the management papers. Queries to {person}, copying {person2} where the matter is urgent.',
      ],
    },
    'meeting minutes': {
      title: ['Minutes: {title}', '{title} - meeting notes', 'Minutes of meeting: {title}'],
      opening: [
        'Present: {person} (chair), {person2} and four members of the working group. Apologies were received from two colleagues.',
        'Minutes of the meeting held on {date} at the {place} office. {person} chaired, and the minutes of the previous meeting were agreed as accurate.',
        'Attendees: {person}, {person2} and representatives from each team. The chair welcomed everyone and noted that the meeting was quorate.',
        'The meeting opened at 2pm with {person} in the chair. Apologies: none. There were no declarations of interest.',
      ],
      closing: [
        'Actions: {person} to circulate the revised draft; all members to send comments by {date}. The meeting closed at 3.40pm.',
        'Next meeting: {date}, same venue. Action points will be tracked by {person} and reviewed at the start of that meeting.',
        'Any other business: none. Outstanding actions were carried forward, and {person} will confirm the date of the next meeting.',
        'Summary of actions: {person} to confirm costs of up to {amount}; the secretary to book the room for the next meeting in {place}.',
      ],
    },
    'funding application': {
      title: ['Funding application: {title}', 'Application for funding - {title}'],
      opening: [
        '{ours} is applying for a grant of {amount} to support the work described in this application, which would run for twelve months.',
        'This application is submitted by {person} on behalf of {ours}, in response to the funding round that closes on {date}.',
        'We are seeking support to carry out the project set out below. This section explains who {ours} is and why we are applying now.',
        'Applicant organisation: {ours}, based in {place}. Lead contact: {person}. Sum requested: {amount}.',
      ],
      closing: [
        'We confirm that the information in this application is accurate to the best of our knowledge. Signed on behalf of {ours} by {person}.',
        'Supporting documents, including our latest accounts and governing document, are attached. Please contact {person} with any questions.',
        'Should the application succeed, we would begin on {date} and report to the funder at six and twelve months.',
        'Thank you for considering this application. We would welcome a visit to {place} if it would help the panel reach a decision.',
      ],
    },
    'funding bid': {
      title: ['Funding bid: {title}', '{title} - bid for funding'],
      opening: [
        'This bid sets out the case for investing {amount} in the work below and explains how the money would be spent.',
        '{ours} submits this bid to the regional fund. It has been prepared by {person} with input from partners across {place}.',
        'Our bid responds directly to the fund’s stated priorities, and this opening section summarises the need in {place} and our proposed response.',
        'Bid reference and contact details are on the cover sheet. The bid was approved for submission by our board on {date}.',
      ],
      closing: [
        'In summary, this bid offers clear value for money and a realistic plan for delivery. {ours} is ready to start as soon as funds are confirmed.',
        'The budget breakdown and letters of support are provided in the appendices. Clarification questions can be sent to {person}.',
        'If successful, {ours} will acknowledge the fund in all related publicity and share lessons learned at the end of the project.',
        'We would be glad to present this bid in person. {person} is available to meet the assessment panel at any point before {date}.',
      ],
    },
    'grant proposal': {
      title: ['Grant proposal: {title}', '{title} - proposal for grant support'],
      opening: [
        'This proposal requests grant support of {amount} over eighteen months. It describes the problem, the planned activity and the expected outcomes.',
        'Principal contact: {person}, {ours}. The proposal below is submitted for the grant call closing on {date}.',
        'We propose a focused piece of work with clear milestones, led by {person}. The summary below is followed by the detailed plan and budget.',
        '{ours} and its partner organisation in {place} jointly submit this proposal, with {person} acting as lead applicant.',
      ],
      closing: [
        'Outcomes will be measured against the indicators in the evaluation plan, and {person} will send a final report to the grant-maker within three months of completion.',
        'We thank the panel for its time. Further detail on any part of this proposal can be provided by {person} on request.',
        'Letters of support, CVs of key staff and a full budget are enclosed. This proposal remains open for discussion until {date}.',
        'The proposal has been reviewed and approved by the director of {ours}, who confirms that match funding of {amount} is in place.',
      ],
    },
    'tender response': {
      title: ['Tender response: {title}', 'Response to invitation to tender - {title}'],
      opening: [
        '{ours} is pleased to submit this response to your invitation to tender dated {date}. We have answered each requirement in the order set out.',
        'In reply to the invitation to tender issued by {org}, we set out below our understanding of the requirement and our proposed approach.',
        'This document forms our formal response to the ITT. Our single point of contact for the tender process is {person}.',
        'Thank you for the opportunity to tender. This response has been prepared by our bid team in {place} and addresses every item in the specification.',
      ],
      closing: [
        'This offer remains valid for 90 days from the tender return date. Our total price of {amount} excludes VAT.',
        'Our tender is valid for acceptance until {date}. We confirm that we have read and accept the buyer’s terms and conditions.',
        'We trust this response meets your requirements. Prices quoted are fixed for a validity period of 120 days, and {person} will handle any clarifications.',
        'Signed for and on behalf of {ours} by {person}, who confirms that this offer stands for three months from submission.',
      ],
    },
    'client proposal': {
      title: ['Proposal for {title}', '{title} - our proposal', '{title}: proposal'],
      opening: [
        'Thank you for inviting {ours} to put forward a proposal. Following our conversation on {date}, this document sets out how we would approach the work.',
        'Dear {person}, as promised after our meeting, here is our proposal. It covers scope, timescales, fees and the team we would assign.',
        'This proposal has been written for you and your colleagues in {place}. It reflects what you told us about your priorities and constraints.',
        'We understand you are looking for a partner who can deliver promptly and without fuss. Below is how {ours} would go about it.',
      ],
      closing: [
        'Our fee for the work described is {amount}, payable in two stages. We would be happy to adjust the scope if the budget needs to change.',
        'If you are happy to proceed, please sign and return the attached letter of engagement. {person} will then arrange a start-up meeting.',
        'We look forward to hearing from you. This proposal is valid until {date}, after which we may need to review our availability and fees.',
        'Thank you for considering us. Please call {person} directly if you would like to talk through any part of this proposal.',
      ],
    },
    'project proposal': {
      title: ['Project proposal: {title}', 'Proposal: {title}'],
      opening: [
        'This paper proposes a new project and asks the leadership team to approve it on {date}. It outlines the aims, the approach and the resources needed.',
        'Sponsor: {person}. Proposed start: {date}. The purpose of this proposal is to secure agreement in principle before detailed planning begins.',
        'The project described here has been suggested by staff in {place}, and this document sets out why it is worth doing now.',
        '{person} and {person2} have drafted this proposal to make the case for a short, well-defined project with a clear end point.',
      ],
      closing: [
        'The leadership team is asked to approve the proposal and an initial budget of {amount}. A full project plan would follow within four weeks.',
        'Risks, dependencies and alternatives considered are listed in the annex. Comments on this proposal should reach {person} by {date}.',
        'If approved, a project board chaired by {person} will be formed and the first progress report presented at the next quarterly review.',
        'Recommendation: proceed to the planning stage. {person} is happy to present this proposal at the next management meeting.',
      ],
    },
    'product brief': {
      title: ['Product brief: {title}', '{title} - brief'],
      opening: [
        'This brief sets out what {ours} is building, who it is for and what success looks like. It is the reference point for everyone working on the product.',
        'Product owner: {person}. Version 1.2, updated {date}. Please read this brief before the kick-off session.',
        'The purpose of this brief is to agree the problem we are solving before anyone starts on design or delivery. Comments to {person}, please.',
        '{ours} has asked for a short, shared statement of intent for the product below. This document is that statement, and it will change as we learn.',
      ],
      closing: [
        'Out of scope for this release: anything not listed above. Requests for changes to the brief should go to {person}.',
        'Sign-off is needed from {person} and {person2} before work begins. The brief will be revisited after the first round of user testing.',
        'Open questions are tracked in the shared log. We aim to close them all by {date} so that the team can commit to a release date.',
        'Budget for this phase is capped at {amount}. Any change that would take us over that figure needs approval from the product board.',
      ],
    },
    'annual report': {
      title: ['Annual report: {title}', '{title} - annual report'],
      opening: [
        'This annual report covers the twelve months to {date}. It reviews what {ours} set out to do, what was achieved and what we learned.',
        'Welcome to the annual report of {ours}. The following pages set out the year’s work, our finances and our plans for the year ahead.',
        'The purpose of this report is to give members, staff and partners an honest account of the year. It was approved by the board on {date}.',
        'In this report, {person}, our chair, introduces the year, and the main section below looks at one area of work in detail.',
      ],
      closing: [
        'The full financial statements are available on request from {person}. The board recommends that the priorities above are carried forward into next year.',
        'We thank everyone who contributed to the year’s work at {ours}. The next annual report will be published after the year end, in line with our reporting cycle.',
        'Looking ahead, the board has agreed three priorities for the coming year, and progress against them will be reported on {date}.',
        'This report was approved by the board on {date} and signed on its behalf by {person}, Chair of {ours}.',
      ],
    },
    'quarterly report': {
      title: ['Quarterly report: {title}', '{title} - quarterly update', '{title} - quarter in review'],
      opening: [
        'This report covers the quarter ending {date}. It summarises performance against plan and highlights the issues that need a decision.',
        'The purpose of this quarterly report is to keep the board of {ours} informed of progress. It is deliberately short, with detail in the appendix.',
        'Prepared by {person} for the management team of {ours}. The figures below are unaudited and may be revised at year end.',
        'Scope: activity across all teams in {place} during the last three months, measured against the targets set in the annual plan.',
      ],
      closing: [
        'Recommendations: note the position above and approve spending of up to {amount} to keep the work on track next quarter.',
        'The next quarterly report will be presented on {date}. Any requests for additional measures should be sent to {person}.',
        'Overall, the quarter should be read against the annual plan. Variances above ten per cent are explained in the appendix and will be revisited at the meeting on {date}.',
        'The management team is asked to note this report and to agree the actions listed. {person} will review progress again in three months.',
      ],
    },
    'audit report': {
      title: ['Audit report: {title}', 'Internal audit - {title}'],
      opening: [
        'This report sets out the findings of an internal audit whose fieldwork ended on {date}. The scope was agreed in advance with management.',
        'Objective: to assess whether current controls are adequate and working as intended. The audit was led by {person}.',
        'The audit covered the area described below at the {place} site. It was conducted through interviews, document review and sample testing.',
        'Independent review commissioned by {ours}. This report is addressed to the audit committee and to the managers responsible for the area reviewed.',
      ],
      closing: [
        'Recommendations have been rated high, medium or low priority. Management has agreed to act on each by {date}, and a follow-up audit will confirm this.',
        'The overall assurance rating is given in the summary table. We thank {person} and colleagues for their cooperation during the fieldwork.',
        'Management responses are included in the action plan. Progress will be reported to the audit committee on {date}.',
        'This report is confidential and should not be shared beyond its named recipients without the agreement of {person}, head of internal audit.',
      ],
    },
    'project report': {
      title: ['Project report: {title}', '{title} - progress report', '{title} - end of project report'],
      opening: [
        'This report describes the project’s progress to {date}, including what has been delivered, what has slipped and why.',
        'Project manager: {person}. The report is intended for the project board and covers scope, budget, timeline and risks.',
        'The purpose of this end-of-project report is to record what {ours} achieved against the original objectives and to capture lessons for next time.',
        'This report has been compiled from team updates and the project log. It is written for anyone picking up related work at {ours} in future.',
      ],
      closing: [
        'Recommendations: close the project formally, hand remaining tasks to the operations team and hold a lessons-learned session by {date}.',
        'Total spend to date is {amount}, within the approved budget. The board is asked to note the report and confirm the revised timeline.',
        'The next progress report will follow at the end of the next stage. Questions on this report should go to {person}.',
        'A post-project review led by {person} will take place in six months to check whether the expected benefits are being realised.',
      ],
    },
    'case study': {
      title: ['Case study: {title}', '{title} - a case study'],
      opening: [
        'This case study looks at how one team at {ours} approached a common challenge, what they tried and what they would do differently.',
        'The following account is based on conversations with {person} and colleagues in {place}. It is shared so that others can learn from it.',
        'Background: the work described here began some time ago in {place} and has since been looked at in detail by the people who carried it out.',
        'We are publishing this case study with the permission of everyone involved at {ours}. Names and details have been kept to what is needed to tell the story.',
      ],
      closing: [
        'Key lessons: start small, involve the people affected early and review progress often. {person} is happy to talk to anyone considering something similar.',
        'This case study was prepared by {person} for the shared learning library at {ours}. It may be reproduced with acknowledgement.',
        'If you would like to discuss how this approach might work in your own setting, contact {person2} at {ours}.',
        'The team will look at the results again on {date}, and an update to this case study will be published afterwards.',
      ],
    },
    'annual letter': {
      title: ['Annual letter: {title}', 'A letter from the director - {title}'],
      opening: [
        'Dear friends and colleagues, each year I write to everyone connected with {ours} to reflect on the past twelve months. This year I want to start with the work below.',
        'Dear all, it is that time of year again when I look back on what we have done together at {ours} and share a few thoughts about what lies ahead.',
        'To our members, partners and staff in {place}: thank you for another year of commitment. In this letter I focus on one area that I think deserves attention.',
        'Dear colleagues, as {date} marks the end of our year, I would like to take stock and say a few words about where we are.',
      ],
      closing: [
        'Thank you, as ever, for your support and good humour. With best wishes for the coming year, {person}.',
        'I look forward to seeing many of you at our gathering in {place}. Until then, with warm regards, {person}, Director.',
        'Please write to me with your thoughts on anything in this letter, as I read every reply. Yours sincerely, {person}, {ours}.',
        'Here is to another good year of working together. With gratitude and best wishes, {person} and {person2}.',
      ],
    },
    'welcome pack': {
      title: ['Welcome pack: {title}', '{title} - welcome pack'],
      opening: [
        'Welcome to {ours}. This pack is for anyone joining us, and it brings together the practical information you will need in your first few weeks.',
        'We are very glad you are here. This welcome pack explains how things work at {ours}, who to ask and what to expect on your first day.',
        'This section of the welcome pack is for new colleagues starting in {place}. Keep it handy, as you will probably refer back to it.',
        'Hello and welcome. {person} will be your first point of contact, and this pack covers the essentials so you do not have to remember everything at once.',
      ],
      closing: [
        'If anything in this pack is unclear, ask {person} or any member of the team. Nobody expects you to know everything yet.',
        'We hope you settle in quickly. A welcome meeting is booked for {date}, where you can ask any questions that come up.',
        'Useful contacts are listed on the back page. For anything urgent, the main office in {place} is staffed from 8.30am to 5pm.',
        'Once again, welcome to the team. Please return the signed acknowledgement form to {person} by the end of your first week.',
      ],
    },
    'volunteer guide': {
      title: ['Volunteer guide: {title}', '{title} - guide for volunteers'],
      opening: [
        'This guide is for everyone who gives their time to {ours}. It explains what you can expect from us and what we ask of you in return.',
        'Thank you for volunteering with {ours}. This chapter of the guide is written for new and returning volunteers and covers the topic below.',
        'Whether you help once a year or every week, this guide should answer most of your questions. Your volunteer coordinator is {person}.',
        'This section is for volunteers based in {place}. Please read it before your first shift and keep a copy for reference.',
      ],
      closing: [
        'If you need help or have a concern, speak to {person}, who coordinates volunteers. You can also leave a message at the office.',
        'Out-of-pocket expenses up to {amount} can be claimed each month using the volunteer expenses form. Ask {person} for a copy.',
        'We review this guide every year, and the next update is due by {date}. Suggestions from volunteers are always welcome.',
        'Thank you again for the time you give. If you ever feel unsure about a task, stop and ask {person} or whoever is leading the shift.',
      ],
    },
    'staff handbook chapter': {
      title: ['Staff handbook: {title}', 'Chapter: {title}', '{title} - staff handbook'],
      opening: [
        'This chapter of the staff handbook applies to all employees of {ours}, whether full-time, part-time or on a fixed-term contract.',
        'Who this chapter is for: everyone on the payroll of {ours}, including those still on probation. Agency workers should check with their agency first.',
        'This part of the handbook explains the arrangements below and what they mean for you day to day in {place}. It should be read alongside your contract.',
        'Managers and staff should both read this chapter. It was last revised on {date} following consultation with staff representatives.',
      ],
      closing: [
        'If you have questions about this chapter, speak to your line manager or contact {person} in the people team.',
        'This chapter does not form part of your contract of employment and may be amended. The current version, last revised on {date}, is always on the staff intranet.',
        'For help applying this chapter to your own situation, contact the people team in {place} or your staff representative.',
        'Last reviewed by {person}. Next review due {date}. Earlier versions of this chapter should be discarded.',
      ],
    },
    'policy document': {
      title: ['Policy: {title}', '{title} policy', '{title} - policy statement'],
      opening: [
        'Purpose: this policy sets out the principles and responsibilities that {ours} follows in the area described below.',
        'Scope: this policy applies to all staff, volunteers and contractors, at every site including {place}. It takes effect from {date}.',
        'This document states the policy of {ours} and the standards we expect. It is supported by separate procedures, which give step-by-step guidance.',
        'Policy owner: {person}. Approved by the board. This policy replaces all earlier versions and local guidance on the same subject.',
      ],
      closing: [
        'Breaches of this policy may be dealt with under the disciplinary procedure. Concerns can be raised with {person} in confidence.',
        'This policy will be reviewed every two years, or sooner if the law or our circumstances change. Next scheduled review: {date}.',
        'Related documents are listed in the appendix. For advice on applying this policy, contact the policy owner, {person}.',
        'Adopted by {ours} on {date}. Responsibility for monitoring compliance rests with the senior management team.',
      ],
    },
    'briefing note': {
      title: ['Briefing note: {title}', 'Briefing - {title}'],
      opening: [
        'Purpose: to brief {person} on the current position ahead of the meeting on {date}. This note is for information and does not require a decision.',
        'This briefing note gives senior managers a concise summary of the issue below, the options available and the way forward {person} recommends.',
        'Summary: this note sets out the background and key facts in two pages. Detailed supporting material is available from {person} on request.',
        'Prepared by {person2} for the leadership team at {ours}. Classification: internal. The note reflects the position as of this morning.',
      ],
      closing: [
        'Recommendation: that the leadership team notes this briefing and agrees the next steps above. Contact {person} for further detail.',
        'Decision required by {date}. If no decision is taken, the current arrangements will continue unchanged.',
        'Further briefing can be provided at short notice. The author, {person}, is based in {place} and can attend in person if needed.',
        'This note will be updated if the position changes before {date}. Readers are asked not to circulate it beyond the intended audience.',
      ],
    },
    'training manual': {
      title: ['Training manual: {title}', 'Module: {title}', '{title} - trainee notes'],
      opening: [
        'This module of the training manual is for staff at {place} who are new to the tasks below or who need a refresher. Allow about an hour to work through it.',
        'Learning outcomes: by the end of this section you should be able to explain the main steps and carry them out with {person} supervising.',
        'Who this module is for: all new starters at {ours}, plus anyone returning after a long absence. Your trainer will sign off each section.',
        'This section of the manual supports the classroom session led by {person}. Read it beforehand and bring any questions with you.',
      ],
      closing: [
        'Once you have completed this module, ask your trainer to sign the record sheet. Help is available from {person} in the training team.',
        'Check your understanding with the short quiz at the end of the manual. If you get stuck, the learning team in {place} can help.',
        'Refresher training on this module is due every twelve months. Your next session will be booked automatically after {date}.',
        'Well done for completing this section. If anything was unclear, please tell {person} so that the manual can be improved.',
      ],
    },
    'safety handbook': {
      title: ['Safety handbook: {title}', '{title} - safety guidance', 'Health and safety: {title}'],
      opening: [
        'This section of the safety handbook applies to everyone on the premises in {place}, including visitors and contractors. Read it before starting any related work.',
        'Safety comes first. This chapter is for all staff at the {place} site and explains the precautions that apply to the activity below.',
        'The guidance in this handbook is based on our risk assessments, which are reviewed every year by {person}, the nominated safety lead.',
        'Who should read this: anyone at {ours} whose work brings them into contact with the area below. If in doubt, assume it applies to you.',
      ],
      closing: [
        'Report any accident, near miss or hazard straight away to your supervisor or to {person}. Forms are kept at reception.',
        'First aiders and fire wardens are listed on the noticeboard by the main entrance; {person} keeps the list up to date. In an emergency, dial 999 first.',
        'If you are unsure whether a task is safe, stop and ask. Contact {person} in the safety team for advice at any time.',
        'This handbook section was last reviewed on {date}. Suggestions for making it clearer are welcome and can be given to any manager.',
      ],
    },
    'event plan': {
      title: ['Event plan: {title}', '{title} - event plan'],
      opening: [
        'This plan sets out the arrangements for the event on {date} in {place}, including roles, timings, budget and contingency measures.',
        'Event lead: {person}. Deputy: {person2}. This document is the single source of truth for planning and should be updated as decisions are made.',
        'Purpose of the event: to bring people together in {place} around the subject below. This plan covers everything from venue booking to follow-up.',
        'The plan below was agreed at the planning meeting and will be reviewed weekly until the event. The budget allocated is {amount}.',
      ],
      closing: [
        'Contingency: if the venue becomes unavailable, the back-up option is the main hall at {ours}. The event lead will decide by {date}.',
        'A debrief will be held within two weeks of the event, and {person} will summarise feedback from attendees for the next planning cycle.',
        'All helpers should confirm their availability with {person} by {date}. A final briefing will be held on the morning of the event.',
        'Questions about this plan should go to the event lead. Any change to the budget of {amount} needs sign-off from the finance manager.',
      ],
    },
    'project plan': {
      title: ['Project plan: {title}', '{title} - delivery plan'],
      opening: [
        'This project plan describes how {ours} will deliver the work, by whom and by when. It should be read alongside the approved project proposal.',
        'Project sponsor: {person}; project manager: {person2}; planned start: {date}. This plan covers scope, milestones, resources and risks.',
        'The objective of this plan is to give everyone at {ours} a clear view of the stages, dependencies and decision points in the project.',
        'Baseline version agreed by the project board. The work is expected to run for six months and will be delivered mainly from {place}.',
      ],
      closing: [
        'The plan will be reviewed at each stage gate, and any change to scope, cost or timescale will go to the project board, chaired by {person}, for approval.',
        'Total budget: {amount}, including a ten per cent contingency. Spending will be reported monthly to the sponsor.',
        'Next review of this plan: {date}. Team members should raise risks as soon as they are identified by logging them with {person}.',
        'Success will be judged against the milestones above. The project will close formally once the handover to business as usual is complete, by {date} at the latest.',
      ],
    },
    'operations manual': {
      title: ['Operations manual: {title}', '{title} - operating procedure', 'Procedure: {title}'],
      opening: [
        'This section of the operations manual is for the staff in {place} responsible for the day-to-day running of the process below. It describes the standard procedure.',
        'Who this section is for: shift leads and operational staff at {place}. It sets out how the task should be carried out, checked and recorded.',
        'The procedure below is the approved way of working at {ours}. Local variations are not permitted unless agreed in writing by {person}.',
        'Document owner: {person}. Effective from {date}. This procedure supersedes any earlier instructions on the same task.',
      ],
      closing: [
        'If the procedure cannot be followed for any reason, stop, record the problem and escalate to the duty manager or to {person}.',
        'For help with this procedure, contact the operations team in {place}. Suggested improvements should be logged through the change request form.',
        'Records produced under this procedure must be kept for at least two years. Spot checks will be carried out by {person}, the operations manager.',
        'This manual section is reviewed annually. The next review is due on {date}, and printed copies should be checked against the master version.',
      ],
    },
    'onboarding guide': {
      title: ['Onboarding guide: {title}', 'Getting started: {title}'],
      opening: [
        'This onboarding guide is for new colleagues in their first month at {ours}. It introduces the topic below and tells you who to talk to.',
        'Welcome aboard. This part of the guide is for anyone who has just joined the team at {ours} and wants a clear picture of how things are done here.',
        'Your onboarding buddy is {person}, and your start date is {date}. This guide complements the sessions they will walk you through.',
        'Use this guide alongside your onboarding checklist. Each section explains one area of work and ends with a short task to try; {person} can help if you get stuck.',
      ],
      closing: [
        'By the end of your first month, you should feel confident with the basics covered here. Your buddy, {person}, can help with anything that is unclear.',
        'Tick off this section on your onboarding checklist once you have read it. Your manager will go through any questions at your first review on {date}.',
        'If you get stuck, the onboarding channel is the quickest place to ask. Alternatively, pop into the {place} office and ask for {person}.',
        'Your 30-day check-in is booked for {date}. Bring any notes from this guide, and let us know how we could make onboarding better.',
      ],
    },
    'research report': {
      title: ['Research report: {title}', '{title} - findings', '{title}: a study'],
      opening: [
        'This report presents the findings of a study carried out by {ours}. It sets out the research questions, the methods used and the main results.',
        'Aim: to understand the issue below more clearly and to inform future decisions. The research was led by {person} with support from {person2}.',
        'Data for this report were collected up to {date}. The scope and limitations of the study are set out in the methods section.',
        'This research report is intended for managers and practitioners at {ours} and beyond. A plain-English summary is provided at the front for readers short on time.',
      ],
      closing: [
        'Recommendations for practice and for further research are listed below. The authors welcome comments, which can be sent to {person}.',
        'The full dataset and survey instruments are available on request, subject to data protection requirements. Contact the research team in {place}.',
        'We thank everyone who took part in the study. A follow-up review is planned for {date} to test whether the findings still hold.',
        'The views in this report are those of the authors and not necessarily those of {ours}. Citation details are given on the inside cover.',
      ],
    },
    'club handbook': {
      title: ['Club handbook: {title}', '{title} - club rules and guidance'],
      opening: [
        'This section of the club handbook is for all members of {ours}, new and old. It explains how the club runs the activity below and what is expected of members.',
        'Welcome to the handbook of {ours}. The committee has put this together so that members have the rules and practical details in one place.',
        'Who this section is for: anyone taking part in club activities, including guests. Please read it before your first session at {place}.',
        'The handbook was updated by the committee on {date}. This chapter sets out the arrangements currently in force.',
      ],
      closing: [
        'Questions about anything in this handbook can be put to the club secretary, {person}, or raised at any committee meeting.',
        'The committee may amend these rules by vote at a general meeting. Proposed changes should be sent to {person} in writing.',
        'For help, speak to any committee member on club nights, or email {person}. The handbook is reviewed before each AGM.',
        'Annual membership is {amount}. Please let the membership secretary know of any change to your contact details.',
      ],
    },
    'user guide': {
      title: ['User guide: {title}', '{title} - user guide', 'Quick start: {title}'],
      opening: [
        'This user guide is for anyone at {ours} who needs to use the tools and process below. It assumes no previous experience and works through each step in order.',
        'Who this guide is for: everyday users at {ours}. Administrators will find additional settings in the separate admin guide.',
        'This guide explains how to get started, how to complete common tasks and what to do if something does not work as expected. Send corrections to {person}.',
        'Version 2.0 of this guide, updated on {date}. Screenshots may differ slightly from what you see, but the steps are the same.',
      ],
      closing: [
        'Still stuck? Contact the help desk in {place} or email {person}, and include a short description of what you were trying to do.',
        'Troubleshooting tips and frequently asked questions are at the back of this guide. If your question is not answered, ask {person}.',
        'Please report errors in this guide to {person} so that the next version can be corrected. Thank you for helping us improve it.',
        'Further training is available on request. Sessions run monthly at {ours}, and the next one is scheduled for {date}.',
      ],
    },
    'annual review': {
      title: ['Annual review: {title}', '{title} - year in review', 'Our year: {title}'],
      opening: [
        'Our annual review looks back on a busy year for {ours}. It is a shorter, more readable companion to the formal annual report.',
        'This review celebrates the people and projects that shaped the year at {ours}, starting with the piece of work described below.',
        'A word from {person}, our chief executive: this review tells some of the stories behind our year, in the words of those who were there.',
        'The period covered by this review runs to {date}. It draws on contributions from teams across {place} and beyond.',
      ],
      closing: [
        'Thank you to everyone in {place} who made this year possible. We look forward to sharing next year’s review with you.',
        'Next year we will build on what worked and change what did not. Our plans are set out in the strategy available from {person}.',
        'Copies of this review can be requested from the office in {place}. Large-print and accessible versions are also available.',
        'This review was produced in-house at a cost of under {amount}. Feedback on its content and format is welcome and can be sent to {person}.',
      ],
    },
    'tender document': {
      title: ['Invitation to tender: {title}', '{title} - tender document', 'Tender: {title}'],
      opening: [
        '{ours} invites suitably qualified suppliers to submit tenders for the requirement described below. This document sets out the specification and the process.',
        'This invitation to tender is issued on {date}. Bidders should read all sections carefully before preparing their response.',
        'Contracting authority: {ours}. Procurement lead: {person}. Estimated contract value: {amount}, excluding VAT.',
        'The purpose of this tender document is to explain what {ours} needs, how bids will be evaluated and the timetable for award.',
      ],
      closing: [
        'Completed tenders must be returned by noon on {date}. Late submissions will not be considered under any circumstances.',
        'Clarification questions should be sent in writing to {person}. Anonymised answers will be shared with all bidders.',
        'Bids will be evaluated on the basis of 60 per cent quality and 40 per cent price. The successful bidder will be notified by {date}.',
        '{ours} is not bound to accept the lowest or any tender and will not reimburse the costs of preparing a response.',
      ],
    },
  },
  aliases: {
    'audit summary': 'audit report',
    'event programme': 'event plan',
    'board report': 'annual report',
  },
};
